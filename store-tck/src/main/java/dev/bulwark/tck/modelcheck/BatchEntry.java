package dev.bulwark.tck.modelcheck;

/**
 * One request's operation in a batch: what the engine's batch queue carries for that request when
 * it sends the operations of one JVM's callers on one limit as one store call.
 */
public record BatchEntry(int request, Caller.Operation operation) {

  @Override
  public String toString() {
    return operation.name().toLowerCase(java.util.Locale.ROOT) + "(" + (request + 1) + ")";
  }
}
