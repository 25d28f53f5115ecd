package dev.bulwark.spi;

import java.util.List;

/**
 * {@link BulwarkStore#renew} reached only part of the store (one node of a cluster failed, say):
 * the leases in {@link #notRenewed()} were not extended and are due again at once; every other
 * lease was renewed, except those in {@link #lost()}, which the store no longer knows.
 */
public class PartialRenewalException extends StoreException {
  private static final long serialVersionUID = 1L;

  private final transient List<Lease> lost;
  private final transient List<Lease> notRenewed;

  public PartialRenewalException(
      String message, Throwable cause, List<Lease> lost, List<Lease> notRenewed) {
    super(message, cause);
    this.lost = List.copyOf(lost);
    this.notRenewed = List.copyOf(notRenewed);
  }

  /** Leases the store answered for and no longer holds, as {@link BulwarkStore#renew} returns. */
  public List<Lease> lost() {
    return lost;
  }

  /** Leases whose part of the store failed: neither renewed nor known to be lost. */
  public List<Lease> notRenewed() {
    return notRenewed;
  }
}
