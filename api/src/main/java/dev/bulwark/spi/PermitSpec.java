package dev.bulwark.spi;

/**
 * One bulkhead as a store sees it, resolved once per limit.
 *
 * @param name the limit's name, validated; a store still treats it as data
 * @param limit the maximum number of holders at once
 * @param leaseMillis how long a holder's permit (and a queued request) lives without renewal
 */
public record PermitSpec(String name, int limit, long leaseMillis) {

  /** What must agree across the JVMs that share the name, as recorded in a shared store. */
  public String definition() {
    return "value=" + limit;
  }
}
