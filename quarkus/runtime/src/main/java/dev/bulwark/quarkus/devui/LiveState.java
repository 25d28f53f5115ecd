package dev.bulwark.quarkus.devui;

import java.util.List;

/**
 * What the store holds for one limit now, across every JVM that shares it. Only the fields of the
 * limit's kind are set: a bulkhead has {@code holders}, {@code queued} and {@code waiting}, a rate
 * limit {@code available}, a lock its {@code keys}.
 *
 * @param limit the limit's value (permits at once, or per window)
 * @param available permits a call could take now without waiting
 * @param queued requests waiting for a permit
 * @param waiting the first of them in queue order, as the store lists them ({@code since}: when it
 *     queued, where the store records that)
 * @param keys the lock keys this JVM granted lately, each as the store sees it now (a store cannot
 *     list every key of a lock)
 * @param error why the store could not be read, else null
 */
public record LiveState(
    Integer limit,
    Integer available,
    Integer queued,
    List<HolderView> holders,
    List<HolderView> waiting,
    List<LockKeyView> keys,
    String error) {

  static LiveState failed(String error) {
    return new LiveState(null, null, null, null, null, null, error);
  }
}
