package dev.bulwark.benchmarks;

import jakarta.enterprise.context.ApplicationScoped;

/** The baseline: the same trivial method as the guarded services, on a bean with no interceptor. */
@ApplicationScoped
public class PlainService {

  /** The work every variant does: next value of the caller's sequence. */
  public long next(long current) {
    return current + 1;
  }
}
