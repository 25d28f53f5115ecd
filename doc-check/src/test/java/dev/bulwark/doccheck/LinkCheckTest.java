package dev.bulwark.doccheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The link check on hand-made repositories: each planted bad link is reported, good ones not. */
class LinkCheckTest {

  @TempDir Path root;

  @Test
  void goodLinksPass() throws IOException {
    write(
        "docs/guide.md",
        """
        # Guide

        ## Redis store (`bulwark-redis`)

        ## Redis store (`bulwark-redis`)

        ## How the store's cost grows
        """);
    write("core/src/Main.java", "class Main {}\n");
    write(
        "README.md",
        """
        # Title

        See [the guide](docs/guide.md), [its store](docs/guide.md#redis-store-bulwark-redis),
        the second one [again](docs/guide.md#redis-store-bulwark-redis-1), [costs](
        docs/guide.md#how-the-stores-cost-grows), [a folder](docs/), [code](core/src/Main.java),
        [here](#title), [`quoted`](<docs/guide.md>), [titled](docs/guide.md "The guide"),
        [the web](https://example.org/missing.md) and ![an image](docs/guide.md).

        [ref]: docs/guide.md
        """);

    assertThat(problems()).isEmpty();
  }

  @Test
  void aLinkToAMissingFileIsReported() throws IOException {
    write("README.md", "# Title\n\nSee\n[the guide](docs/gide.md).\n");

    assertThat(problems())
        .containsExactly(
            "README.md:4: docs/gide.md: no such file or folder in the repository (docs/gide.md)");
  }

  @Test
  void aLinkToAMissingHeadingIsReported() throws IOException {
    write("docs/guide.md", "# Guide\n\n## Redis store\n");
    write(
        "docs/other.md",
        "[store](guide.md#redis-stores) and [here](#nowhere) and [ok](guide.md#redis-store)\n");

    assertThat(problems())
        .containsExactly(
            "docs/other.md:1: guide.md#redis-stores: no heading in docs/guide.md has the anchor"
                + " #redis-stores",
            "docs/other.md:1: #nowhere: no heading in docs/other.md has the anchor #nowhere");
  }

  @Test
  void referenceDefinitionsAndHtmlLinksAreChecked() throws IOException {
    write("README.md", "# T\n\n[ref]: docs/none.md\n\n<a href=\"img/none.png\">x</a>\n");

    assertThat(problems()).hasSize(2).allMatch(p -> p.contains("no such file"));
  }

  @Test
  void aLinkLeavingTheRepositoryIsReported() throws IOException {
    write("docs/guide.md", "[up](../../outside.md)\n");

    assertThat(problems())
        .containsExactly("docs/guide.md:1: ../../outside.md: leaves the repository");
  }

  @Test
  void linksInsideCodeAreNotLinks() throws IOException {
    write(
        "README.md",
        """
        # T

        `[not a link](missing.md)` and ``also `[not](missing.md)` ``

        ```markdown
        [not a link either](missing.md)
        ```

          ~~~
          [nor this](missing.md)
          ~~~
        """);

    assertThat(problems()).isEmpty();
  }

  @Test
  void slugsAreGitHubs() {
    assertThat(
            MarkdownFile.slug(
                "JPA store in a CDI container (`bulwark-jpa`, `dev.bulwark.jpa.container`)"))
        .isEqualTo("jpa-store-in-a-cdi-container-bulwark-jpa-devbulwarkjpacontainer");
    assertThat(MarkdownFile.slug("Existing MicroProfile @Bulkhead, cluster-wide"))
        .isEqualTo("existing-microprofile-bulkhead-cluster-wide");
    assertThat(MarkdownFile.slug("See [the guide](x.md) **now**")).isEqualTo("see-the-guide-now");
  }

  private List<String> problems() {
    return new LinkCheck(Repository.at(root)).problems();
  }

  private void write(String path, String text) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent() == null ? root : file.getParent());
    Files.writeString(file, text);
  }
}
