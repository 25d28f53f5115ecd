package dev.bulwark.jpa.container;

import dev.bulwark.jpa.setup.InvalidJpaSettingException;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.transaction.TransactionManager;
import java.util.List;
import java.util.Set;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The container's JTA transaction manager: a CDI bean where the container offers one (Quarkus),
 * else under the JNDI names application servers bind it to (Payara and GlassFish, WildFly).
 */
final class TransactionManagers {

  /** Where application servers bind their transaction manager; the standard has no name for it. */
  static final List<String> JNDI_NAMES =
      List.of("java:appserver/TransactionManager", "java:/TransactionManager");

  private TransactionManagers() {}

  static TransactionManager find(BeanManager beans) {
    Set<Bean<?>> candidates = beans.getBeans(TransactionManager.class);
    if (!candidates.isEmpty()) {
      Bean<?> bean = beans.resolve(candidates);
      CreationalContext<?> context = beans.createCreationalContext(bean);
      return (TransactionManager) beans.getReference(bean, TransactionManager.class, context);
    }
    for (String name : JNDI_NAMES) {
      try {
        Object found = new InitialContext().lookup(name);
        if (found instanceof TransactionManager manager) {
          return manager;
        }
      } catch (NamingException e) {
        // not bound under this name here: try the next
      }
    }
    throw new InvalidJpaSettingException(
        "bulwark.store=jpa: the store keeps its work out of the caller's JTA transaction, but this"
            + " container offers no TransactionManager (neither a CDI bean nor at "
            + JNDI_NAMES
            + ")");
  }
}
