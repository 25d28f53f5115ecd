package dev.bulwark.event;

/** Why a call was not admitted. */
public enum RejectionReason {
  /** Full (or no rate-limit permit) and the call might not wait. */
  FULL,
  /** The call waited its whole waiting time without a grant. */
  TIMED_OUT,
  /** The waiting thread was interrupted. */
  INTERRUPTED,
  /** The store could not be reached and the failure policy is {@code fail-closed}. */
  STORE_DOWN
}
