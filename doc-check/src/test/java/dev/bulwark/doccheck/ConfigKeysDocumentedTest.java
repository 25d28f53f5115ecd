package dev.bulwark.doccheck;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The keys of docs/configuration.md are read in src/main, and every key src/main reads, builds or
 * sets, and every key a Markdown properties block sets, is in docs/configuration.md.
 */
class ConfigKeysDocumentedTest {

  @Test
  void configurationPageAndCodeAgree() {
    ConfigKeyCheck check = new ConfigKeyCheck(Repository.ofBuild());

    assertThat(check.problems()).as("keys the page and the code disagree on").isEmpty();
    // the check saw what it is meant to compare, not an empty page or a code it cannot read
    assertThat(check.documentedKeys()).isGreaterThan(40);
    assertThat(check.codeKeys()).isGreaterThan(40);
  }
}
