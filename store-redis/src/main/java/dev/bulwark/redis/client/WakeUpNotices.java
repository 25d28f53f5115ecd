package dev.bulwark.redis.client;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import dev.bulwark.spi.GrantListener;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hand-over notices of this JVM's wake-up channel, {@code <request>:<token>:<mac>}. A request
 * queues with this JVM's secret (random per JVM, stored with its queue entry); the script that
 * hands it a grant publishes the mac, hex SHA-1 of {@code <secret>:<request>:<token>}, and only a
 * notice whose mac matches reaches the listener. So a client that may PUBLISH but cannot read
 * Bulwark's keys can neither start a waiter nor hand it a fencing token. A notice carries a request
 * id that is never reused, so replaying a seen one wakes nobody.
 */
public final class WakeUpNotices {

  private static final BulwarkLog LOG = BulwarkLog.of(WakeUpNotices.class);
  private static final HexFormat HEX = HexFormat.of();
  private static final int MAC_HEX_LENGTH = 40;

  private static final ThreadLocal<MessageDigest> SHA_1 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-1");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException(e);
            }
          });

  private final String secret;
  private final GrantListener listener;
  private final AtomicLong rejected = new AtomicLong();

  private WakeUpNotices(String secret, GrantListener listener) {
    this.secret = secret;
    this.listener = listener;
  }

  /** Notices for a JVM with a fresh random secret. */
  public static WakeUpNotices forListener(GrantListener listener) {
    byte[] random = new byte[16];
    new SecureRandom().nextBytes(random);
    return new WakeUpNotices(HEX.formatHex(random), listener);
  }

  /** What a request of this JVM queues with: the scripts sign their hand-over notices with it. */
  public String secret() {
    return secret;
  }

  /** The notice a script publishes when it hands {@code token} to {@code requestId}. */
  public String notice(long requestId, long token) {
    String body = requestId + ":" + token;
    return body + ":" + HEX.formatHex(mac(body));
  }

  /** How many notices were dropped as not from the store (forged or malformed). */
  public long rejected() {
    return rejected.get();
  }

  /** Tells the listener of a notice the store signed; drops (and counts) every other message. */
  void accept(String message) {
    int first = message.indexOf(':');
    int second = message.indexOf(':', first + 1);
    if (first <= 0 || second <= first + 1 || message.length() - second - 1 != MAC_HEX_LENGTH) {
      reject(message);
      return;
    }
    long requestId;
    long token;
    byte[] mac;
    try {
      requestId = Long.parseLong(message, 0, first, 10);
      token = Long.parseLong(message, first + 1, second, 10);
      mac = HEX.parseHex(message, second + 1, message.length());
    } catch (IllegalArgumentException e) {
      reject(message);
      return;
    }
    // the body is taken back to its canonical form, the one the script signed
    if (!MessageDigest.isEqual(mac, mac(requestId + ":" + token))) {
      reject(message);
      return;
    }
    listener.granted(requestId, token);
  }

  private byte[] mac(String body) {
    return SHA_1.get().digest((secret + ":" + body).getBytes(StandardCharsets.UTF_8));
  }

  private void reject(String message) {
    // the first one is worth a warning (a misconfigured or hostile publisher); a flood is not
    LOG.warnOnce(
        rejected.getAndIncrement() == 0, LogMessage.REDIS_UNSIGNED_NOTICE, null, message.length());
  }
}
