package dev.bulwark.redis.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.Collections;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

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
  private final SSLSocketFactory socketFactory;

  private Truststore(Path path, Type type, SSLSocketFactory socketFactory) {
    this.path = path;
    this.type = type;
    this.socketFactory = socketFactory;
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
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return new Truststore(path, type, context.getSocketFactory());
  }

  /** Sockets that trust exactly this store's certificates. */
  public SSLSocketFactory socketFactory() {
    return socketFactory;
  }

  @Override
  public String toString() {
    return path + " (" + type + ")";
  }
}
