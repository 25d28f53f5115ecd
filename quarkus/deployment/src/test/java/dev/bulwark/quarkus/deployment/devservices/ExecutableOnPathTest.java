package dev.bulwark.quarkus.deployment.devservices;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PATH lookup: the first executable file of that name, as a shell finds it. */
class ExecutableOnPathTest {

  @TempDir Path first;
  @TempDir Path second;

  @Test
  void findsTheFirstExecutableFileOfThatName() throws Exception {
    Path notExecutable = Files.createFile(first.resolve("redis-server"));
    Files.setPosixFilePermissions(notExecutable, PosixFilePermissions.fromString("rw-r--r--"));
    Path executable = Files.createFile(second.resolve("redis-server"));
    Files.setPosixFilePermissions(executable, PosixFilePermissions.fromString("rwxr-xr-x"));
    String path = first + File.pathSeparator + File.pathSeparator + second;

    assertThat(ExecutableOnPath.find("redis-server", path)).contains(executable);
    assertThat(ExecutableOnPath.find("redis-cli", path)).isEmpty();
  }

  @Test
  void aDirectoryOfThatNameIsNoProgram() throws Exception {
    Files.createDirectory(first.resolve("redis-server"));
    assertThat(ExecutableOnPath.find("redis-server", first.toString())).isEmpty();
  }

  @Test
  void noPathFindsNothing() {
    assertThat(ExecutableOnPath.find("redis-server", null)).isEmpty();
    assertThat(ExecutableOnPath.find("redis-server", "")).isEmpty();
  }
}
