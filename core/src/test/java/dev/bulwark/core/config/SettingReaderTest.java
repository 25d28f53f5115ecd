package dev.bulwark.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.core.engine.EngineSettings;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingReaderTest {

  private static SettingReader reader(Map<String, String> values) {
    return SettingReader.of(ConfigLookup.of(values));
  }

  @Test
  void booleansAreWhatMicroProfileConfigTakesInAnyCaseAndNothingElse() {
    for (String on : new String[] {"true", "True", "1", "yes", "YES", "y", "on", " On "}) {
      assertThat(reader(Map.of("k", on)).bool("k")).as(on).contains(true);
    }
    for (String off : new String[] {"false", "FALSE", "0", "no", "n", "off", "Off"}) {
      assertThat(reader(Map.of("k", off)).bool("k")).as(off).contains(false);
    }
    assertThat(reader(Map.of("k", " ")).bool("k")).as("blank is unset").isEmpty();
    assertThatThrownBy(() -> reader(Map.of("flag.key", "ture")).bool("flag.key"))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessage(
            "Invalid config key 'flag.key': 'ture' is not a boolean (true/false, yes/no, on/off,"
                + " 1/0, y/n)");
  }

  @Test
  void wholeNumbersAreDigitsWithinTheirRange() {
    assertThat(reader(Map.of("n", "7")).integer("n", 1, 10)).contains(7);
    for (String bad : new String[] {"0", "11", "-3", "+3", "3.0", "3 4", "99999999999"}) {
      assertThatThrownBy(() -> reader(Map.of("n", bad)).integer("n", 1, 10))
          .as(bad)
          .hasMessage("Invalid config key 'n': '" + bad + "' is not a whole number from 1 to 10");
    }
  }

  @Test
  void durationsTakeTheShortFormsIsoAndBareNumbersInTheGivenUnit() {
    assertThat(reader(Map.of("d", "250ms")).duration("d", ChronoUnit.SECONDS))
        .contains(Duration.ofMillis(250));
    assertThat(reader(Map.of("d", "PT2S")).duration("d", ChronoUnit.MILLIS))
        .contains(Duration.ofSeconds(2));
    assertThat(reader(Map.of("d", "3")).duration("d", ChronoUnit.SECONDS))
        .contains(Duration.ofSeconds(3));
    assertThatThrownBy(() -> reader(Map.of("d", "soon")).duration("d", ChronoUnit.MILLIS))
        .hasMessageStartingWith("Invalid config key 'd': 'soon' is not a duration");
    for (String huge : new String[] {"99999999999999999999", "999999999999999999d"}) {
      assertThatThrownBy(() -> reader(Map.of("d", huge)).duration("d", ChronoUnit.MILLIS))
          .as(huge)
          .isInstanceOf(InvalidDefinitionException.class)
          .hasMessageStartingWith("Invalid config key 'd': '" + huge + "'");
    }
  }

  @Test
  void theCallerChoosesTheExceptionTheMessageStaysTheSame() {
    SettingReader reader =
        new SettingReader(ConfigLookup.of(Map.of("k", "x")), IllegalStateException::new);

    assertThatThrownBy(() -> reader.integer("k", 0, 1))
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage("Invalid config key 'k': 'x' is not a whole number from 0 to 1");
    assertThat(reader.invalid("k", "***", "is not used here"))
        .hasMessage("Invalid config key 'k': '***' is not used here");
  }

  @Test
  void theEngineSwitchTakesTheSameBooleansAndReportsInTheSameFormat() {
    assertThat(EngineSettings.from(ConfigLookup.of(Map.of("bulwark.enabled", "off"))).enabled())
        .isFalse();
    assertThatThrownBy(() -> EngineSettings.from(ConfigLookup.of(Map.of("bulwark.enabled", "nah"))))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageStartingWith("Invalid config key 'bulwark.enabled': 'nah' is not a boolean");
  }
}
