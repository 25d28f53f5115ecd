package dev.bulwark.fttck;

import org.jboss.arquillian.container.spi.client.container.DeploymentExceptionTransformer;

/**
 * Weld reports the definition errors an extension adds as one {@code
 * org.jboss.weld.exceptions.DefinitionException} carrying them as suppressed exceptions, while the
 * TCK's invalid-parameter tests expect the {@code
 * jakarta.enterprise.inject.spi.DefinitionException} itself. When there is exactly one problem,
 * that problem is the deployment's failure.
 */
public class DefinitionProblemUnwrapper implements DeploymentExceptionTransformer {

  @Override
  public Throwable transform(Throwable exception) {
    if (exception instanceof org.jboss.weld.exceptions.DefinitionException) {
      Throwable[] problems = exception.getSuppressed();
      if (problems.length == 1) {
        return problems[0];
      }
    }
    return null;
  }
}
