package dev.bulwark.redis.client;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.Collections;
import java.util.Locale;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.SslVerifyMode;

/**
 * The certificates the store trusts when it talks TLS ({@code bulwark.redis.truststore}), loaded
 * once at start. Host names are still verified against the certificate.
 */
public final class Truststore {

  /** The file formats of {@code bulwark.redis.truststore-type}. */
  public enum Type {
    PKCS12,
    JKS,
    /** One or more X.509 certificates in PEM, as Redis' own {@code ca.crt}. */
    PEM;

    static Type parse(String value) {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    }
  }

  private final Path path;
  private final Type type;
  private final byte[] pkcs12;
  private final char[] pkcs12Password;

  private Truststore(Path path, Type type, byte[] pkcs12, char[] pkcs12Password) {
    this.path = path;
    this.type = type;
    this.pkcs12 = pkcs12;
    this.pkcs12Password = pkcs12Password;
  }

  /**
   * @throws IllegalStateException when the file holds no trusted certificate (a PKCS12 file read
   *     without its password shows none)
   */
  static Truststore load(Path path, Type type, char[] password)
      throws IOException, GeneralSecurityException {
    KeyStore store;
    try (InputStream in = Files.newInputStream(path)) {
      if (type == Type.PEM) {
        store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        Collection<? extends Certificate> certificates =
            CertificateFactory.getInstance("X.509").generateCertificates(in);
        int n = 0;
        for (Certificate certificate : certificates) {
          store.setCertificateEntry("ca-" + n++, certificate);
        }
      } else {
        store = KeyStore.getInstance(type.name());
        store.load(in, password);
      }
    }
    boolean trustsOne = false;
    for (String alias : Collections.list(store.aliases())) {
      trustsOne |= store.isCertificateEntry(alias);
    }
    if (!trustsOne) {
      throw new IllegalStateException(
          "holds no trusted certificate"
              + (type == Type.PEM ? "" : " (or bulwark.redis.truststore-password is missing)"));
    }
    // Jedis reads a trust store per connection, from a stream: give it a PKCS12 copy in memory
    char[] copyPassword = new char[16];
    SecureRandom random = new SecureRandom();
    for (int i = 0; i < copyPassword.length; i++) {
      copyPassword[i] = (char) ('a' + random.nextInt(26));
    }
    KeyStore copy = KeyStore.getInstance("PKCS12");
    copy.load(null, null);
    for (String alias : Collections.list(store.aliases())) {
      if (store.isCertificateEntry(alias)) {
        copy.setCertificateEntry(alias, store.getCertificate(alias));
      }
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    copy.store(bytes, copyPassword);
    return new Truststore(path, type, bytes.toByteArray(), copyPassword);
  }

  /** TLS that trusts exactly this store's certificates and checks the host name. */
  SslOptions sslOptions() {
    return SslOptions.builder()
        .truststore(() -> new ByteArrayInputStream(pkcs12), pkcs12Password.clone())
        .trustStoreType("PKCS12")
        .sslVerifyMode(SslVerifyMode.FULL)
        .build();
  }

  @Override
  public String toString() {
    return path + " (" + type + ")";
  }
}
