package dev.bulwark.quarkus.deployment;

import io.quarkus.builder.item.SimpleBuildItem;
import java.util.List;

/** The application's classes that carry a Bulwark binding (or a {@code @LockKey}), by name. */
public final class GuardedClassesBuildItem extends SimpleBuildItem {

  private final List<String> names;

  public GuardedClassesBuildItem(List<String> names) {
    this.names = List.copyOf(names);
  }

  public List<String> names() {
    return names;
  }
}
