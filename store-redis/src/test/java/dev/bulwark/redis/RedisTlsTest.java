package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.RateLimitType;
import dev.bulwark.redis.client.InvalidRedisSettingException;
import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store over TLS against a redis-server that speaks only TLS, with a CA generated for the test:
 * {@code rediss://} and {@code ssl=true} work with the configured trust store, a certificate the
 * trust store does not vouch for fails the start saying so, and the password shows nowhere.
 */
@Timeout(60)
class RedisTlsTest {

  private static TlsRedisServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = TlsRedisServer.start();
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aRedissUrlWithAPkcs12TruststoreCarriesPermitsAndRates() {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.redis.url", rediss());
    config.put("bulwark.redis.truststore", server.truststore().toString());
    config.put("bulwark.redis.truststore-password", TlsRedisServer.TRUSTSTORE_PASSWORD);

    try (RecordingStore store = open(config)) {
      assertThat(store.store().settings().ssl()).isTrue();
      assertThat(store.store().wakeUpsSubscribed()).as("subscription over TLS").isTrue();
      assertPermitsAndRatesWork(store);
      assertThat(store.store().settings().toString())
          .contains("over TLS trusting " + server.truststore())
          .doesNotContain(TlsRedisServer.PASSWORD, TlsRedisServer.TRUSTSTORE_PASSWORD);
    }
  }

  @Test
  void sslTrueWithARedisUrlAndRedisOwnCaFileWorks() {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.redis.url", "redis://localhost:" + server.port());
    config.put("bulwark.redis.password", TlsRedisServer.PASSWORD);
    config.put("bulwark.redis.ssl", "true");
    config.put("bulwark.redis.truststore", server.caPem().toString());
    config.put("bulwark.redis.truststore-type", "PEM");

    try (RecordingStore store = open(config)) {
      assertThat(store.store().wakeUpsSubscribed()).as("subscription over TLS").isTrue();
      assertPermitsAndRatesWork(store);
    }
  }

  @Test
  void aCertificateSignedByAnotherCaFailsTheStartSayingItWasNotTrusted() {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.redis.url", rediss());
    config.put("bulwark.redis.truststore", server.wrongTruststore().toString());
    config.put("bulwark.redis.truststore-password", TlsRedisServer.TRUSTSTORE_PASSWORD);

    long started = System.nanoTime();
    assertThatThrownBy(() -> open(config))
        .isInstanceOf(InvalidRedisSettingException.class)
        .hasMessageContaining("certificate of Redis rediss://127.0.0.1:" + server.port())
        .hasMessageContaining("was not trusted")
        .hasMessageContaining("bulwark.redis.truststore " + server.wrongTruststore())
        .hasMessageNotContaining(TlsRedisServer.PASSWORD)
        .hasMessageNotContaining(TlsRedisServer.TRUSTSTORE_PASSWORD);
    assertThat(System.nanoTime() - started)
        .as("fails at start, not after retrying")
        .isLessThan(TimeUnit.SECONDS.toNanos(30));
  }

  @Test
  void withoutATruststoreTheJvmsDefaultOneDecidesAndDoesNotKnowTheTestCa() {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.redis.url", rediss());

    assertThatThrownBy(() -> open(config))
        .isInstanceOf(InvalidRedisSettingException.class)
        .hasMessageContaining("was not trusted")
        .hasMessageContaining("the JVM's default trust store")
        .hasMessageNotContaining(TlsRedisServer.PASSWORD);
  }

  @Test
  void aCertificateThatDoesNotNameTheHostFailsTheStart() {
    // the server also listens on 127.0.0.2, which its certificate does not name
    Map<String, String> config = new HashMap<>();
    config.put(
        "bulwark.redis.url",
        "rediss://:" + TlsRedisServer.PASSWORD + "@127.0.0.2:" + server.port());
    config.put("bulwark.redis.truststore", server.truststore().toString());
    config.put("bulwark.redis.truststore-password", TlsRedisServer.TRUSTSTORE_PASSWORD);

    assertThatThrownBy(() -> open(config))
        .isInstanceOf(InvalidRedisSettingException.class)
        .hasMessageContaining("certificate of Redis rediss://127.0.0.2:" + server.port())
        .hasMessageContaining("was rejected")
        .hasMessageContaining("127.0.0.2")
        .hasMessageNotContaining(TlsRedisServer.PASSWORD);
  }

  @Test
  void aTruststoreThatCannotBeReadFailsTheStartNamingTheKeyButNotThePassword() {
    Map<String, String> wrongPassword = new HashMap<>();
    wrongPassword.put("bulwark.redis.url", rediss());
    wrongPassword.put("bulwark.redis.truststore", server.truststore().toString());
    wrongPassword.put("bulwark.redis.truststore-password", "not-" + TlsRedisServer.PASSWORD);
    assertThatThrownBy(() -> open(wrongPassword))
        .isInstanceOf(InvalidRedisSettingException.class)
        .hasMessageContaining("'bulwark.redis.truststore': '" + server.truststore() + "'")
        .hasMessageContaining("PKCS12")
        .hasMessageNotContaining(TlsRedisServer.PASSWORD);

    Map<String, String> pemReadAsPkcs12 = new HashMap<>();
    pemReadAsPkcs12.put("bulwark.redis.url", rediss());
    pemReadAsPkcs12.put("bulwark.redis.truststore", server.caPem().toString());
    assertThatThrownBy(() -> open(pemReadAsPkcs12))
        .isInstanceOf(InvalidRedisSettingException.class)
        .hasMessageContaining("'bulwark.redis.truststore': '" + server.caPem() + "'")
        .hasMessageContaining("bulwark.redis.truststore-type")
        .hasMessageNotContaining(TlsRedisServer.PASSWORD);
  }

  private static String rediss() {
    return "rediss://:" + TlsRedisServer.PASSWORD + "@127.0.0.1:" + server.port();
  }

  private static RecordingStore open(Map<String, String> config) {
    Map<String, String> all = new HashMap<>(config);
    all.put("bulwark.redis.key-prefix", "tls-test:");
    all.put("bulwark.redis.pool-size", "4");
    return RecordingStore.open(RedisSettings.from(key -> Optional.ofNullable(all.get(key))));
  }

  private static void assertPermitsAndRatesWork(RecordingStore store) {
    PermitSpec one = new PermitSpec("tls-pool-" + System.nanoTime(), 1, 10_000);
    assertThat(store.store().permits().acquire(one, 1, false)).isEqualTo(Grant.GRANTED);
    assertThat(store.store().permits().acquire(one, 2, false)).isEqualTo(Grant.REJECTED);
    store.store().permits().release(one, 1);
    assertThat(store.store().permits().acquire(one, 3, false)).isEqualTo(Grant.GRANTED);
    store.store().permits().release(one, 3);

    RateSpec perMinute =
        new RateSpec(
            "tls-rate-" + System.nanoTime(), RateLimitType.FIXED, 1, TimeUnit.MINUTES.toNanos(1));
    assertThat(store.store().rates().reserve(perMinute, 0)).isEqualTo(RateDecision.NOW);
    RateDecision second = store.store().rates().reserve(perMinute, 0);
    assertThat(second.granted()).isFalse();
    assertThat(second.delayNanos()).isPositive();
  }
}
