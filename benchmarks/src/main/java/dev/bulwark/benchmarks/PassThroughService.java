package dev.bulwark.benchmarks;

import jakarta.enterprise.context.ApplicationScoped;

/** The same method under an interceptor that does nothing: Weld's floor for one interceptor. */
@ApplicationScoped
public class PassThroughService {

  @PassThrough
  public long next(long current) {
    return current + 1;
  }
}
