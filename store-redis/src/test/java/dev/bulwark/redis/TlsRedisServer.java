package dev.bulwark.redis;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.opentest4j.TestAbortedException;

/**
 * A redis-server that speaks only TLS, on a free port, with a certificate for {@code localhost} and
 * {@code 127.0.0.1} signed by a CA generated for it (the JDK's keytool, so nothing else is needed),
 * and a password. Without a redis-server built with TLS the test is skipped, except under {@code
 * CI=true}, where it fails.
 */
final class TlsRedisServer implements AutoCloseable {

  static final String PASSWORD = "tls-s3cret";
  static final String TRUSTSTORE_PASSWORD = "trust-pw";
  private static final String STORE_PASSWORD = "keytool-pw";
  private static final String REDIS_SERVER = "/usr/bin/redis-server";

  private final Path dir;
  private final int port;
  private Process process;

  private TlsRedisServer(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  static TlsRedisServer start() throws IOException, InterruptedException {
    requireOrSkip(Files.isExecutable(Path.of(REDIS_SERVER)), REDIS_SERVER + " is not installed");
    requireOrSkip(Files.isExecutable(keytool()), keytool() + " is missing");
    Path dir = Files.createTempDirectory("bulwark-tls");
    TlsRedisServer server = new TlsRedisServer(dir, freePort());
    try {
      server.generateCertificates();
      server.launch();
      return server;
    } catch (IOException | InterruptedException | RuntimeException | Error e) {
      server.close();
      throw e;
    }
  }

  int port() {
    return port;
  }

  /** A PKCS12 trust store holding the CA that signed the server's certificate. */
  Path truststore() {
    return dir.resolve("trust.p12");
  }

  /** The same CA as PEM, as Redis itself reads it. */
  Path caPem() {
    return dir.resolve("ca.crt");
  }

  /** A PKCS12 trust store holding a different CA, which signed nothing the server shows. */
  Path wrongTruststore() {
    return dir.resolve("wrong-trust.p12");
  }

  private void generateCertificates() throws IOException, InterruptedException {
    keytool(
        "-genkeypair",
        "-alias",
        "ca",
        "-dname",
        "CN=Bulwark Test CA",
        "-ext",
        "bc:c",
        "-keystore",
        "ca.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "other",
        "-dname",
        "CN=Some Other CA",
        "-ext",
        "bc:c",
        "-keystore",
        "other.p12");
    keytool("-genkeypair", "-alias", "server", "-dname", "CN=localhost", "-keystore", "server.p12");
    keytool("-certreq", "-alias", "server", "-keystore", "server.p12", "-file", "server.csr");
    keytool(
        "-gencert",
        "-alias",
        "ca",
        "-keystore",
        "ca.p12",
        "-infile",
        "server.csr",
        "-outfile",
        "server.crt",
        "-rfc",
        "-ext",
        "san=dns:localhost,ip:127.0.0.1",
        "-ext",
        "eku=serverAuth");
    writePem(exportedCertificate("ca.p12", "ca"), caPem());
    writePem(exportedCertificate("other.p12", "other"), dir.resolve("other.crt"));
    writeServerKey();
    writeTruststore(caPem(), truststore());
    writeTruststore(dir.resolve("other.crt"), wrongTruststore());
  }

  private byte[] exportedCertificate(String keystore, String alias) throws IOException {
    try (InputStream in = Files.newInputStream(dir.resolve(keystore))) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, STORE_PASSWORD.toCharArray());
      return store.getCertificate(alias).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void writePem(byte[] certificate, Path into) throws IOException {
    Files.writeString(
        into,
        "-----BEGIN CERTIFICATE-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(certificate)
            + "\n-----END CERTIFICATE-----\n");
  }

  private void writeServerKey() throws IOException {
    try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, STORE_PASSWORD.toCharArray());
      PrivateKey key = (PrivateKey) store.getKey("server", STORE_PASSWORD.toCharArray());
      String pem =
          "-----BEGIN PRIVATE KEY-----\n"
              + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                  .encodeToString(key.getEncoded())
              + "\n-----END PRIVATE KEY-----\n";
      Files.writeString(dir.resolve("server.key"), pem);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void writeTruststore(Path caPem, Path into) throws IOException {
    try (InputStream in = Files.newInputStream(caPem)) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setCertificateEntry(
          "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
      try (var out = Files.newOutputStream(into)) {
        store.store(out, TRUSTSTORE_PASSWORD.toCharArray());
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private void keytool(String... arguments) throws IOException, InterruptedException {
    // a short-lived JVM per call: start it as cheaply as possible
    List<String> command =
        new ArrayList<>(
            List.of(keytool().toString(), "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
    command.addAll(List.of(arguments));
    command.addAll(
        List.of(
            "-storetype",
            "PKCS12",
            "-storepass",
            STORE_PASSWORD,
            "-keypass",
            STORE_PASSWORD,
            "-validity",
            "2",
            "-noprompt"));
    if (arguments[0].equals("-genkeypair")) {
      command.addAll(List.of("-keyalg", "EC", "-groupname", "secp256r1"));
    }
    Process keytool =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("keytool.log").toFile())
            .start();
    if (!keytool.waitFor(60, TimeUnit.SECONDS)) {
      keytool.destroyForcibly();
      throw new IllegalStateException("keytool " + arguments[0] + " did not finish");
    }
    if (keytool.exitValue() != 0) {
      throw new IllegalStateException(
          "keytool "
              + String.join(" ", arguments)
              + " failed: "
              + Files.readString(dir.resolve("keytool.log")));
    }
  }

  private void launch() throws IOException, InterruptedException {
    Path log = dir.resolve("redis.log");
    process =
        new ProcessBuilder(
                REDIS_SERVER,
                "--port",
                "0",
                "--tls-port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "-127.0.0.2", // optional: a loopback address the certificate does not name
                "--tls-cert-file",
                dir.resolve("server.crt").toString(),
                "--tls-key-file",
                dir.resolve("server.key").toString(),
                "--tls-ca-cert-file",
                caPem().toString(),
                "--tls-auth-clients",
                "no",
                "--requirepass",
                PASSWORD,
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString())
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!listening()) {
      if (!process.isAlive()) {
        String output = Files.readString(log);
        // a redis-server built without TLS refuses the tls-* options
        requireOrSkip(
            !output.contains("not supported") && !output.contains("Bad directive"),
            "redis-server has no TLS support: " + output.strip());
        throw new IllegalStateException("redis-server with TLS did not start: " + output);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "redis-server with TLS did not listen on " + port + ": " + Files.readString(log));
      }
      Thread.sleep(20);
    }
  }

  private boolean listening() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static Path keytool() {
    return Path.of(System.getProperty("java.home"), "bin", "keytool");
  }

  private static void requireOrSkip(boolean condition, String why) {
    if (condition) {
      return;
    }
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail(why + " (CI=true: the TLS tests must run)");
    }
    throw new TestAbortedException(why + "; TLS tests skipped");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() throws IOException {
    if (process != null) {
      process.destroy();
      try {
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    try (var files = Files.walk(dir)) {
      files.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
    }
  }
}
