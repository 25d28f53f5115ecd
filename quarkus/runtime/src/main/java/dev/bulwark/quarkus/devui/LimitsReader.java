package dev.bulwark.quarkus.devui;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.LimitKind;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.engine.EngineSettings;
import dev.bulwark.core.registry.LimitRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the Dev UI's view of the limits from a running engine: the definitions as resolved (the
 * same table the engine logs at startup) and, per enforced limit, what the store holds now.
 */
public final class LimitsReader {

  private final BulwarkEngine engine;
  private final LockKeysSeen keysSeen;

  /**
   * @param keysSeen the lock keys to inspect; null when none are tracked
   */
  public LimitsReader(BulwarkEngine engine, LockKeysSeen keysSeen) {
    this.engine = engine;
    this.keysSeen = keysSeen;
  }

  public LimitsPage page() {
    EngineSettings settings = engine.settings();
    Map<String, List<LimitDefinition>> byLimit = new LinkedHashMap<>();
    for (LimitDefinition definition : engine.registry().catalog().definitions()) {
      byLimit
          .computeIfAbsent(
              definition.kind().configSegment() + " " + definition.name(), k -> new ArrayList<>())
          .add(definition);
    }
    List<LimitView> limits = new ArrayList<>();
    for (List<LimitDefinition> declarations : byLimit.values()) {
      LimitDefinition first = declarations.get(0);
      boolean enforced =
          settings.enabled() && declarations.stream().anyMatch(LimitDefinition::enabled);
      limits.add(
          new LimitView(
              first.kind().configSegment(),
              first.name(),
              declarations.stream().map(LimitsReader::declaration).toList(),
              enforced ? live(first.kind(), first.name()) : null));
    }
    return new LimitsPage(
        settings.storeId(), settings.failurePolicy().toString(), settings.enabled(), limits);
  }

  /** One key of a declared lock as the store sees it now. */
  public LockKeyView lockKey(String lock, String key) {
    if (engine.registry().catalog().named(LimitKind.LOCK, lock).isEmpty()) {
      throw new IllegalArgumentException("No enabled @DistributedLock is named '" + lock + "'");
    }
    return LockKeyView.of(engine.registry().lock(lock).inspect(key));
  }

  private LiveState live(LimitKind kind, String name) {
    LimitRegistry registry = engine.registry();
    try {
      return switch (kind) {
        case BULKHEAD -> bulkhead(registry.bulkhead(name).inspect());
        case RATE_LIMIT -> rateLimit(registry.rateLimiter(name).inspect());
        case LOCK -> lock(name);
      };
    } catch (RuntimeException e) {
      // store unreachable, or a store that offers no operator's view: the page says so
      return LiveState.failed(e.getMessage());
    }
  }

  private static LiveState bulkhead(BulkheadSnapshot snapshot) {
    return new LiveState(
        snapshot.limit(),
        snapshot.available(),
        snapshot.queued(),
        snapshot.holders().stream().map(HolderView::of).toList(),
        snapshot.waiting().stream().map(HolderView::of).toList(),
        null,
        null);
  }

  private static LiveState rateLimit(RateLimitSnapshot snapshot) {
    return new LiveState(snapshot.limit(), snapshot.available(), null, null, null, null, null);
  }

  private LiveState lock(String name) {
    List<String> keys = keysSeen == null ? List.of() : keysSeen.of(name);
    List<LockKeyView> views = new ArrayList<>();
    for (String key : keys) {
      views.add(LockKeyView.of(engine.registry().lock(name).inspect(key)));
    }
    return new LiveState(null, null, null, null, null, views, null);
  }

  private static DeclarationView declaration(LimitDefinition definition) {
    List<MemberView> members = new ArrayList<>();
    definition
        .values()
        .forEach(
            (member, value) ->
                members.add(
                    new MemberView(
                        member, value, definition.sources().getOrDefault(member, "annotation"))));
    return new DeclarationView(
        definition.origin().describe(),
        definition.enabled() ? null : definition.sources().get("enabled"),
        members);
  }
}
