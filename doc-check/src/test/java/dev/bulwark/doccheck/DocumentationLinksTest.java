package dev.bulwark.doccheck;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Every relative link of every tracked Markdown file of this repository resolves. */
class DocumentationLinksTest {

  @Test
  void everyRelativeLinkResolves() {
    Repository repository = Repository.ofBuild();
    assertThat(repository.filesEndingWith(".md"))
        .as("the Markdown files of %s", repository.root())
        .contains("README.md", "CONTRIBUTING.md", "docs/configuration.md");

    assertThat(new LinkCheck(repository).problems())
        .as("broken links (file:line: target: why)")
        .isEmpty();
  }
}
