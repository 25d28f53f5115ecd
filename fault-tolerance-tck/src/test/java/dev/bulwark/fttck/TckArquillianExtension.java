package dev.bulwark.fttck;

import org.jboss.arquillian.container.spi.client.container.DeploymentExceptionTransformer;
import org.jboss.arquillian.container.test.spi.client.deployment.ApplicationArchiveProcessor;
import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Prepares every TCK deployment for Weld embedded: makes it a bean archive, adds Bulwark to it in
 * the bridge runs, shows Weld's deployment failures as the exception the TCK expects, and starts
 * each test class with empty metric registries.
 */
public class TckArquillianExtension implements LoadableExtension {

  @Override
  public void register(ExtensionBuilder builder) {
    builder.service(ApplicationArchiveProcessor.class, DeploymentPreparer.class);
    builder.service(DeploymentExceptionTransformer.class, DefinitionProblemUnwrapper.class);
    builder.observer(MetricRegistriesReset.class);
  }
}
