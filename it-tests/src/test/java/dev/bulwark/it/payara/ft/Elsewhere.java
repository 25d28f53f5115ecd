package dev.bulwark.it.payara.ft;

import dev.bulwark.Bulwark;
import dev.bulwark.Permit;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Another JVM's share of the cluster-wide bulkhead of {@link FtService#shared}: a permit taken
 * through Bulwark's programmatic API, outside Payara's own bulkhead, so that this JVM's calls meet
 * a cluster with less room than Payara's bulkhead has.
 */
@ApplicationScoped
public class Elsewhere {

  /** The mapped limit's name: the bean class, the method and its parameter types. */
  public static final String SHARED = FtService.class.getName() + "#shared(java.lang.String,int)";

  @Inject Bulwark bulwark;

  private final AtomicReference<Permit> held = new AtomicReference<>();

  /** Takes one permit of the shared limit; whether there was one. */
  public boolean hold() {
    Optional<Permit> permit = bulwark.bulkhead(SHARED).tryAcquire();
    permit.ifPresent(held::set);
    return permit.isPresent();
  }

  public void release() {
    Permit permit = held.getAndSet(null);
    if (permit != null) {
      permit.close();
    }
  }
}
