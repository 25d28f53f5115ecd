package dev.bulwark.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockMode;
import dev.bulwark.RateLimitType;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DefinitionResolverTest {

  static class Billing {
    @DistributedBulkhead(
        name = "legacy-api",
        value = 10,
        waitingTime = 2,
        waitingTimeUnit = ChronoUnit.SECONDS)
    public void charge() {}

    @DistributedBulkhead
    public void refund() {}

    @DistributedRateLimit(name = "partner", value = 5, type = RateLimitType.FIXED)
    public void quote() {}

    @DistributedLock(mode = LockMode.READ)
    public void read() {}

    @DistributedBulkhead(waitingTimeUnit = ChronoUnit.MONTHS, waitingTime = 1)
    public void monthly() {}
  }

  private static final String CLASS = Billing.class.getName();

  private static DistributedBulkhead bulkhead(String method) throws NoSuchMethodException {
    return Billing.class.getMethod(method).getAnnotation(DistributedBulkhead.class);
  }

  private static Origin origin(String method) throws NoSuchMethodException {
    Method m = Billing.class.getMethod(method);
    return Origin.of(Billing.class, m);
  }

  @Test
  void annotationValuesWithoutConfig() throws Exception {
    BulkheadDefinition definition =
        new DefinitionResolver(ConfigLookup.empty()).bulkhead(origin("charge"), bulkhead("charge"));
    assertThat(definition.name()).isEqualTo("legacy-api");
    assertThat(definition.value()).isEqualTo(10);
    assertThat(definition.waitingTime()).isEqualTo(Duration.ofSeconds(2));
    assertThat(definition.lease()).isEqualTo(Duration.ofSeconds(30));
    assertThat(definition.enabled()).isTrue();
    assertThat(definition.sources()).containsEntry("value", "annotation");
  }

  @Test
  void defaultNamesAreMethodForBulkheadsAndClassForLocks() throws Exception {
    DefinitionResolver resolver = new DefinitionResolver(ConfigLookup.empty());
    assertThat(resolver.bulkhead(origin("refund"), bulkhead("refund")).name())
        .isEqualTo(CLASS + "#refund");
    DistributedLock lock = Billing.class.getMethod("read").getAnnotation(DistributedLock.class);
    assertThat(resolver.lock(origin("read"), lock).name()).isEqualTo(CLASS);
    assertThat(resolver.lock(origin("read"), lock).mode()).isEqualTo(LockMode.READ);
  }

  @Test
  void precedenceIsMethodThenClassThenNamedThenGlobal() throws Exception {
    Map<String, String> config = new HashMap<>();
    config.put("DistributedBulkhead/value", "1");
    assertThat(value(config)).isEqualTo(1);
    config.put("bulwark.bulkhead.legacy-api.value", "2");
    assertThat(value(config)).isEqualTo(2);
    config.put(CLASS + "/DistributedBulkhead/value", "3");
    assertThat(value(config)).isEqualTo(3);
    config.put(CLASS + "/charge/DistributedBulkhead/value", "4");
    assertThat(value(config)).isEqualTo(4);
    assertThat(
            new DefinitionResolver(ConfigLookup.of(config))
                .bulkhead(origin("charge"), bulkhead("charge"))
                .sources())
        .containsEntry("value", CLASS + "/charge/DistributedBulkhead/value");
  }

  private static int value(Map<String, String> config) throws Exception {
    return new DefinitionResolver(ConfigLookup.of(config))
        .bulkhead(origin("charge"), bulkhead("charge"))
        .value();
  }

  @Test
  void durationsInEveryForm() throws Exception {
    assertThat(waitingTime(Map.of("bulwark.bulkhead.legacy-api.waiting-time", "200ms")))
        .isEqualTo(Duration.ofMillis(200));
    assertThat(waitingTime(Map.of("bulwark.bulkhead.legacy-api.waiting-time", "PT0.2S")))
        .isEqualTo(Duration.ofMillis(200));
    assertThat(waitingTime(Map.of("bulwark.bulkhead.legacy-api.waiting-time", "1m")))
        .isEqualTo(Duration.ofMinutes(1));
    // a bare number is in the annotation's unit, or in an FT-style unit override
    assertThat(waitingTime(Map.of("bulwark.bulkhead.legacy-api.waiting-time", "3")))
        .isEqualTo(Duration.ofSeconds(3));
    assertThat(
            waitingTime(
                Map.of(
                    CLASS + "/charge/DistributedBulkhead/waitingTime", "500",
                    CLASS + "/charge/DistributedBulkhead/waitingTimeUnit", "millis")))
        .isEqualTo(Duration.ofMillis(500));
  }

  private static Duration waitingTime(Map<String, String> config) throws Exception {
    return new DefinitionResolver(ConfigLookup.of(config))
        .bulkhead(origin("charge"), bulkhead("charge"))
        .waitingTime();
  }

  @Test
  void invalidValuesNameMethodMemberAndKey() throws Exception {
    assertThatThrownBy(() -> value(Map.of("bulwark.bulkhead.legacy-api.value", "0")))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining(CLASS + "#charge")
        .hasMessageContaining("member 'value'")
        .hasMessageContaining("'bulwark.bulkhead.legacy-api.value'");
    assertThatThrownBy(() -> value(Map.of("bulwark.bulkhead.legacy-api.value", "ten")))
        .hasMessageContaining("'ten' is not a whole number");
    assertThatThrownBy(() -> waitingTime(Map.of("bulwark.bulkhead.legacy-api.waiting-time", "abc")))
        .hasMessageContaining("member 'waitingTime'")
        .hasMessageContaining("'abc' is not a duration");
    assertThatThrownBy(
            () ->
                waitingTime(
                    Map.of(CLASS + "/charge/DistributedBulkhead/waitingTimeUnit", "fortnights")))
        .hasMessageContaining("member 'waitingTimeUnit'")
        .hasMessageContaining("'fortnights' is not a ChronoUnit");
    assertThatThrownBy(
            () ->
                new DefinitionResolver(ConfigLookup.empty())
                    .bulkhead(origin("monthly"), bulkhead("monthly")))
        .hasMessageContaining("member 'waitingTime'")
        .hasMessageContaining("no fixed length");
    assertThatThrownBy(() -> value(Map.of("bulwark.bulkhead.legacy-api.enabled", "maybe")))
        .hasMessageContaining("member 'enabled'");
  }

  static class SlowApi {
    @DistributedBulkhead(name = "slow-api", value = 0)
    public void call() {}
  }

  /** A bad annotation value's message names the key that would set that member, to fix it. */
  @Test
  void anAnnotationsBadValueNamesTheMembersKey() throws Exception {
    Method call = SlowApi.class.getMethod("call");
    assertThatThrownBy(
            () ->
                new DefinitionResolver(ConfigLookup.empty())
                    .bulkhead(
                        Origin.of(SlowApi.class, call),
                        call.getAnnotation(DistributedBulkhead.class)))
        .hasMessageContaining("member 'value'")
        .hasMessageContaining("e.g. bulwark.bulkhead.slow-api.value)");
    assertThatThrownBy(
            () ->
                new DefinitionResolver(ConfigLookup.empty())
                    .bulkhead(origin("monthly"), bulkhead("monthly")))
        .hasMessageContaining("e.g. bulwark.bulkhead." + CLASS + "#monthly.waiting-time)");
  }

  /** Every bad member of a definition in one report, each with the key it came from. */
  @Test
  void everyBadMemberAtOnce() throws Exception {
    Map<String, String> config =
        Map.of(
            "bulwark.bulkhead.legacy-api.value",
            "ten",
            "bulwark.bulkhead.legacy-api.lease",
            "0s",
            CLASS + "/charge/DistributedBulkhead/waitingTime",
            "soon");
    assertThatThrownBy(
            () ->
                new DefinitionResolver(ConfigLookup.of(config))
                    .bulkhead(origin("charge"), bulkhead("charge")))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("member 'value' from config key 'bulwark.bulkhead.legacy-api.value'")
        .hasMessageContaining(
            "member 'waitingTime' from config key '"
                + CLASS
                + "/charge/DistributedBulkhead/waitingTime'")
        .hasMessageContaining("member 'lease' from config key 'bulwark.bulkhead.legacy-api.lease'");
  }

  @Test
  void leaseAndWindowMustBePositive() throws Exception {
    assertThatThrownBy(
            () ->
                new DefinitionResolver(
                        ConfigLookup.of(Map.of("bulwark.bulkhead.legacy-api.lease", "0s")))
                    .bulkhead(origin("charge"), bulkhead("charge")))
        .hasMessageContaining("member 'lease'")
        .hasMessageContaining("must be greater than 0");
    DistributedRateLimit rate =
        Billing.class.getMethod("quote").getAnnotation(DistributedRateLimit.class);
    assertThatThrownBy(
            () ->
                new DefinitionResolver(
                        ConfigLookup.of(Map.of("bulwark.rate-limit.partner.window", "0")))
                    .rateLimit(origin("quote"), rate))
        .hasMessageContaining("member 'window'");
  }

  @Test
  void rateLimitMembersResolve() throws Exception {
    DistributedRateLimit rate =
        Billing.class.getMethod("quote").getAnnotation(DistributedRateLimit.class);
    RateLimitDefinition definition =
        new DefinitionResolver(
                ConfigLookup.of(
                    Map.of(
                        "bulwark.rate-limit.partner.window", "1m",
                        "bulwark.rate-limit.partner.type", "rolling")))
            .rateLimit(origin("quote"), rate);
    assertThat(definition.value()).isEqualTo(5);
    assertThat(definition.window()).isEqualTo(Duration.ofMinutes(1));
    assertThat(definition.type()).isEqualTo(RateLimitType.ROLLING);
  }

  @Test
  void namesAreValidated() {
    assertThat(DefinitionResolver.isValidName("legacy-api")).isTrue();
    assertThat(DefinitionResolver.isValidName("com.acme.Billing$Inner#charge")).isTrue();
    assertThat(DefinitionResolver.isValidName("partner api")).isFalse();
    assertThat(DefinitionResolver.isValidName("a{b}")).isFalse();
    assertThat(DefinitionResolver.isValidName("x".repeat(201))).isFalse();
    assertThatThrownBy(() -> new DefinitionResolver(ConfigLookup.empty()).bulkhead("bad name"))
        .hasMessageContaining("member 'name' = 'bad name'");
  }

  @Test
  void programmaticLimitsUseNamedKeysAndDefaults() {
    BulkheadDefinition definition =
        new DefinitionResolver(ConfigLookup.of(Map.of("bulwark.bulkhead.jobs.value", "4")))
            .bulkhead("jobs");
    assertThat(definition.value()).isEqualTo(4);
    assertThat(definition.waitingTime()).isEqualTo(Duration.ZERO);
    assertThat(definition.sources()).containsEntry("lease", "default");
  }

  @Test
  void aLeaseShorterThanRenewalCanSustainFailsNamingTheKeyAndTheMinimum() throws Exception {
    for (String lease : new String[] {"500us", "50ms", "299ms"}) {
      DefinitionResolver resolver =
          new DefinitionResolver(
              ConfigLookup.of(Map.of("bulwark.bulkhead.legacy-api.lease", lease)));
      assertThatThrownBy(() -> resolver.bulkhead(origin("charge"), bulkhead("charge")))
          .as("lease %s", lease)
          .isInstanceOf(InvalidDefinitionException.class)
          .hasMessageContaining("'bulwark.bulkhead.legacy-api.lease'")
          .hasMessageContaining("minimum lease of 300ms")
          .hasMessageContaining(CLASS + "#charge");
    }
    assertThat(
            new DefinitionResolver(
                    ConfigLookup.of(Map.of("bulwark.bulkhead.legacy-api.lease", "300ms")))
                .bulkhead(origin("charge"), bulkhead("charge"))
                .lease())
        .isEqualTo(Duration.ofMillis(300));
  }

  @Test
  void aLockLeaseIsCheckedTheSameWay() {
    assertThatThrownBy(
            () ->
                new DefinitionResolver(
                        ConfigLookup.of(Map.of("bulwark.lock.accounts.lease", "100ms")))
                    .lock("accounts"))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("'bulwark.lock.accounts.lease'");
  }

  @Test
  void theRateShorthandSetsValueAndWindowBelowTheNamedMemberKeys() {
    RateLimitDefinition shorthand =
        new DefinitionResolver(ConfigLookup.of(Map.of("bulwark.rate-limit.partner-api", "100/1m")))
            .rateLimit("partner-api");
    assertThat(shorthand.value()).isEqualTo(100);
    assertThat(shorthand.window()).isEqualTo(Duration.ofMinutes(1));
    assertThat(shorthand.sources()).containsEntry("value", "bulwark.rate-limit.partner-api");

    RateLimitDefinition overridden =
        new DefinitionResolver(
                ConfigLookup.of(
                    Map.of(
                        "bulwark.rate-limit.partner-api", "100/1m",
                        "bulwark.rate-limit.partner-api.value", "7")))
            .rateLimit("partner-api");
    assertThat(overridden.value()).isEqualTo(7);
    assertThat(overridden.window()).isEqualTo(Duration.ofMinutes(1));

    assertThatThrownBy(
            () ->
                new DefinitionResolver(
                        ConfigLookup.of(Map.of("bulwark.rate-limit.partner-api", "100 per minute")))
                    .rateLimit("partner-api"))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("'bulwark.rate-limit.partner-api'")
        .hasMessageContaining("<permits>/<window>");
  }

  @ParameterizedTest
  @CsvSource({
    "100/second, PT1S",
    "100/sec, PT1S",
    "100/minute, PT1M",
    "100/min, PT1M",
    "100/hour, PT1H",
    "100/day, PT24H",
    "100/Minute, PT1M",
    "100/5m, PT5M"
  })
  void theRateShorthandTakesAUnitWordForAWindowOfOne(String shorthand, Duration window) {
    RateLimitDefinition definition =
        new DefinitionResolver(ConfigLookup.of(Map.of("bulwark.rate-limit.partner-api", shorthand)))
            .rateLimit("partner-api");
    assertThat(definition.value()).isEqualTo(100);
    assertThat(definition.window()).isEqualTo(window);
  }

  @Test
  void anUnknownUnitWordInTheShorthandNamesTheKey() {
    assertThatThrownBy(
            () ->
                new DefinitionResolver(
                        ConfigLookup.of(Map.of("bulwark.rate-limit.partner-api", "100/fortnight")))
                    .rateLimit("partner-api"))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("'bulwark.rate-limit.partner-api'")
        .hasMessageContaining("fortnight");
  }

  @Test
  void resolutionsAreCounted() throws Exception {
    DefinitionResolver resolver = new DefinitionResolver(ConfigLookup.empty());
    resolver.bulkhead(origin("charge"), bulkhead("charge"));
    resolver.lock("accounts");
    assertThat(resolver.resolutions()).isEqualTo(2);
  }

  @Test
  void aSignedValueOrAnEndlessDurationFailsNamingTheKey() throws Exception {
    assertThatThrownBy(
            () ->
                new DefinitionResolver(
                        ConfigLookup.of(Map.of("bulwark.bulkhead.legacy-api.value", "+5")))
                    .bulkhead(origin("charge"), bulkhead("charge")))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("'bulwark.bulkhead.legacy-api.value'");
    assertThatThrownBy(
            () ->
                new DefinitionResolver(
                        ConfigLookup.of(
                            Map.of("bulwark.bulkhead.legacy-api.lease", "9999999999999999d")))
                    .bulkhead(origin("charge"), bulkhead("charge")))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("'bulwark.bulkhead.legacy-api.lease'");
  }

  @Test
  void microProfileNonFallbackSwitchIsTheDefaultOfEnabledBelowEveryEnabledKey() throws Exception {
    assertThat(enabled(Map.of("MP_Fault_Tolerance_NonFallback_Enabled", "false"))).isFalse();
    assertThat(enabled(Map.of("MP_Fault_Tolerance_NonFallback_Enabled", "true"))).isTrue();
    for (String key :
        new String[] {
          CLASS + "/charge/DistributedBulkhead/enabled",
          CLASS + "/DistributedBulkhead/enabled",
          "bulwark.bulkhead.legacy-api.enabled",
          "DistributedBulkhead/enabled"
        }) {
      assertThat(enabled(Map.of("MP_Fault_Tolerance_NonFallback_Enabled", "false", key, "true")))
          .as(key)
          .isTrue();
    }
    BulkheadDefinition off =
        new DefinitionResolver(
                ConfigLookup.of(Map.of("MP_Fault_Tolerance_NonFallback_Enabled", "false")))
            .bulkhead(origin("charge"), bulkhead("charge"));
    assertThat(off.sources()).containsEntry("enabled", "MP_Fault_Tolerance_NonFallback_Enabled");
  }

  /** MicroProfile Config's boolean converter reads FT's key, so whatever it accepts works. */
  @Test
  void microProfileNonFallbackSwitchTakesEveryBooleanMicroProfileConfigAccepts() throws Exception {
    for (String on : new String[] {"1", "yes", "Y", "on", "TRUE"}) {
      assertThat(enabled(Map.of("MP_Fault_Tolerance_NonFallback_Enabled", on))).as(on).isTrue();
    }
    for (String off : new String[] {"0", "no", "off", "false", "nonsense"}) {
      assertThat(enabled(Map.of("MP_Fault_Tolerance_NonFallback_Enabled", off))).as(off).isFalse();
    }
  }

  /** Bulwark's own keys take the same booleans, and refuse anything else, naming the key. */
  @Test
  void enabledTakesEveryBooleanMicroProfileConfigTakes() throws Exception {
    for (String on : new String[] {"true", "TRUE", "1", "yes", "Y", "on"}) {
      assertThat(enabled(Map.of("DistributedBulkhead/enabled", on))).as(on).isTrue();
    }
    for (String off : new String[] {"false", "False", "0", "no", "N", "OFF"}) {
      assertThat(enabled(Map.of("DistributedBulkhead/enabled", off))).as(off).isFalse();
    }
    assertThatThrownBy(() -> enabled(Map.of("DistributedBulkhead/enabled", "nope")))
        .hasMessageContaining("config key 'DistributedBulkhead/enabled'")
        .hasMessageContaining("'nope' is not a boolean");
  }

  private static boolean enabled(Map<String, String> config) throws Exception {
    return new DefinitionResolver(ConfigLookup.of(config))
        .bulkhead(origin("charge"), bulkhead("charge"))
        .enabled();
  }
}
