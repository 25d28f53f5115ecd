package dev.bulwark.it.payara.app;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The gates of the application by name, one per test so tests do not share a record. */
@ApplicationScoped
public class Gates {

  private final Map<String, Gate> gates = new ConcurrentHashMap<>();

  public Gate get(String name) {
    return gates.computeIfAbsent(name, n -> new Gate());
  }
}
