package dev.bulwark.doccheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every message id the code logs with is in docs/operations.md, and the page names no other. */
class LogMessagesDocumentedTest {

  private static final String MESSAGES = "core/src/main/java/dev/bulwark/core/log/LogMessage.java";

  /** A constant of the catalogue: {@code NAME(101,}, the number on the same line or the next. */
  private static final Pattern CONSTANT = Pattern.compile("\\n  [A-Z_]+\\(\\s*(\\d+),");

  private static final Pattern DOCUMENTED = Pattern.compile("`(BULWARK\\d{4})`");

  @Test
  void everyMessageIdIsDocumentedAndNoOther() {
    Repository repository = Repository.ofBuild();
    List<String> logged = new ArrayList<>();
    Matcher constant = CONSTANT.matcher(repository.read(MESSAGES));
    while (constant.find()) {
      logged.add(String.format("BULWARK%04d", Integer.parseInt(constant.group(1))));
    }
    List<String> documented = new ArrayList<>();
    Matcher id = DOCUMENTED.matcher(repository.read("docs/operations.md"));
    while (id.find()) {
      documented.add(id.group(1));
    }

    assertThat(logged).as("the ids of %s", MESSAGES).hasSizeGreaterThan(15).doesNotHaveDuplicates();
    assertThat(documented).as("the ids docs/operations.md lists").containsExactlyElementsOf(logged);
  }
}
