package dev.bulwark.core.metrics;

import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.engine.Limit;
import dev.bulwark.event.LimitEvent;
import dev.bulwark.event.LimitType;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * One recorder per limit for a metrics listener, made on the limit's first event: what every
 * metrics module needs to turn events into per-limit meters, kept once. A limit's name is unique
 * per {@link LimitType}, not across types, so the recorders are kept per type.
 *
 * @param <M> what a metrics module records one limit into
 */
public final class PerLimit<M> {

  private final Map<LimitType, Map<String, M>> recorders = new EnumMap<>(LimitType.class);
  private final BiFunction<LimitType, String, M> create;

  /** {@code create} makes a limit's recorder on its first event; it may register meters. */
  public PerLimit(BiFunction<LimitType, String, M> create) {
    this.create = create;
    for (LimitType type : LimitType.values()) {
      recorders.put(type, new ConcurrentHashMap<>());
    }
  }

  /** The recorder of the limit {@code event} is about; a plain read once it exists. */
  public M of(LimitEvent event) {
    Map<String, M> ofType = recorders.get(event.type());
    M recorder = ofType.get(event.name());
    return recorder != null
        ? recorder
        : ofType.computeIfAbsent(event.name(), name -> create.apply(event.type(), name));
  }

  /** The limit {@code engine} built under {@code name} for {@code type}, if it built one yet. */
  public static Optional<Limit> built(BulwarkEngine engine, LimitType type, String name) {
    return engine.registry().limits().stream()
        .filter(l -> l.definition().name().equals(name) && l.definition().kind().type() == type)
        .findFirst();
  }
}
