package dev.bulwark.redis.client;

import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLException;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A TLS set-up that cannot work (a certificate not trusted, a host name it does not cover, a server
 * that does not speak TLS) fails the start with a message saying so, instead of sending every call
 * to the failure policy as if Redis were down. A server that cannot be reached at all does not fail
 * the start: that is an outage.
 */
final class TlsStartCheck {

  private TlsStartCheck() {}

  /** One round trip; throws when it fails because of TLS. */
  static void verify(RedisSettings settings, UnifiedJedis client) {
    if (!settings.ssl()) {
      return;
    }
    try {
      client.ping();
    } catch (JedisException e) {
      Optional<InvalidRedisSettingException> tls = explain(settings, e);
      if (tls.isPresent()) {
        throw tls.get();
      }
    }
  }

  /** What went wrong with TLS, when {@code failure} was caused by it. */
  static Optional<InvalidRedisSettingException> explain(
      RedisSettings settings, RuntimeException failure) {
    if (!settings.ssl()) {
      return Optional.empty();
    }
    Optional<SSLException> ssl = find(failure, SSLException.class);
    if (ssl.isEmpty()) {
      return Optional.empty();
    }
    String where = settings.describe();
    String trusted =
        settings.truststore() == null
            ? "the JVM's default trust store"
            : "bulwark.redis.truststore " + settings.truststore();
    String message;
    if (find(ssl.get(), CertPathBuilderException.class).isPresent()
        || find(ssl.get(), CertPathValidatorException.class).isPresent()) {
      message =
          "Bulwark: the TLS certificate of "
              + where
              + " was not trusted ("
              + ssl.get().getMessage()
              + "): "
              + trusted
              + " holds no CA that signed it. Set bulwark.redis.truststore to a trust store with"
              + " that CA.";
    } else if (find(ssl.get(), CertificateException.class).isPresent()) {
      message =
          "Bulwark: the TLS certificate of "
              + where
              + " was rejected ("
              + ssl.get().getMessage()
              + "); a certificate must name the host it is reached by.";
    } else {
      message =
          "Bulwark: the TLS handshake with "
              + where
              + " failed ("
              + ssl.get().getMessage()
              + "); check that the server speaks TLS on that port (bulwark.redis.ssl, rediss://).";
    }
    return Optional.of(new InvalidRedisSettingException(message, failure));
  }

  /** The first throwable of {@code type} among the causes and suppressed ones. */
  private static <T extends Throwable> Optional<T> find(Throwable root, Class<T> type) {
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    Deque<Throwable> todo = new ArrayDeque<>();
    todo.add(root);
    while (!todo.isEmpty()) {
      Throwable next = todo.poll();
      if (seen.put(next, true) != null) {
        continue;
      }
      if (type.isInstance(next)) {
        return Optional.of(type.cast(next));
      }
      if (next.getCause() != null) {
        todo.add(next.getCause());
      }
      for (Throwable suppressed : next.getSuppressed()) {
        todo.add(suppressed);
      }
    }
    return Optional.empty();
  }
}
