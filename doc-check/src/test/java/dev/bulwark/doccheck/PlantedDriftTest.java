package dev.bulwark.doccheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks against a copy of this repository's own documents and code, with one drift planted in
 * the copy: what a real edit could do, caught.
 */
class PlantedDriftTest {

  @TempDir Path copy;

  @BeforeEach
  void copyTheRepository() throws IOException {
    Repository repository = Repository.ofBuild();
    for (String file : repository.files()) {
      Path target = copy.resolve(file);
      Files.createDirectories(target.getParent() == null ? copy : target.getParent());
      Files.copy(repository.root().resolve(file), target);
    }
    assertThat(new LinkCheck(Repository.at(copy)).problems()).isEmpty();
    assertThat(new ConfigKeyCheck(Repository.at(copy)).problems()).isEmpty();
  }

  @Test
  void aKeyRenamedOnThePageOnlyIsCaughtOnBothSides() throws IOException {
    edit(
        ConfigKeyCheck.CONFIGURATION,
        "`bulwark.redis.read-timeout`",
        "`bulwark.redis.read-timeouts`");

    assertThat(new ConfigKeyCheck(Repository.at(copy)).problems())
        .anyMatch(
            p -> p.contains("bulwark.redis.read-timeouts: documented, but no src/main reads it"))
        .anyMatch(
            p ->
                p.startsWith("store-redis/src/main/java/")
                    && p.contains("bulwark.redis.read-timeout: read here"));
  }

  @Test
  void aKeyTheCodeStopsReadingIsCaught() throws IOException {
    String settings = "store-jpa/src/main/java/dev/bulwark/jpa/setup/JpaSettings.java";
    edit(settings, "\"max-attempts\"", "\"attempts\"");

    assertThat(new ConfigKeyCheck(Repository.at(copy)).problems())
        .anyMatch(p -> p.contains("bulwark.jpa.max-attempts: documented, but no src/main reads it"))
        .anyMatch(p -> p.contains("bulwark.jpa.attempts: read here"));
  }

  @Test
  void aMovedPageIsCaughtWhereverItIsLinked() throws IOException {
    Files.move(copy.resolve("docs/redis-store.md"), copy.resolve("docs/redis.md"));

    assertThat(new LinkCheck(Repository.at(copy)).problems())
        .anyMatch(
            p -> p.startsWith("README.md:") && p.contains("docs/redis-store.md: no such file"));
  }

  @Test
  void aRenamedHeadingIsCaughtWhereItsAnchorIsLinked() throws IOException {
    edit("docs/redis-store.md", "## Key layout", "## Layout of the keys");

    assertThat(new LinkCheck(Repository.at(copy)).problems())
        .anyMatch(p -> p.contains("#key-layout: no heading in docs/redis-store.md"));
  }

  private void edit(String path, String from, String to) throws IOException {
    Path file = copy.resolve(path);
    String text = Files.readString(file);
    assertThat(text).as("%s holds %s", path, from).contains(from);
    Files.writeString(file, text.replace(from, to));
  }
}
