package dev.bulwark.it.payara.ft;

import dev.bulwark.it.payara.app.Gates;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/** MicroProfile FT bulkheads as an existing application has them; no Bulwark annotation. */
@ApplicationScoped
public class FtService {

  @Inject Gates gates;

  /** Made cluster-wide by config: 2 in this JVM (Payara's FT) and 2 in the cluster (Bulwark). */
  @Bulkhead(2)
  public String shared(String gate, int id) {
    return gates.get(gate).pass(id);
  }

  /** Kept per JVM by its method key: only Payara's FT applies. */
  @Bulkhead(1)
  public String local(String gate, int id) {
    return gates.get(gate).pass(id);
  }
}
