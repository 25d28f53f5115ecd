package dev.bulwark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.it.invalid.BadlyAnnotated;
import dev.bulwark.it.invalid.BadlyConfigured;
import dev.bulwark.it.support.Deployments;
import jakarta.enterprise.inject.spi.DefinitionException;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An invalid definition fails the deployment with a {@link DefinitionException} naming the method,
 * the member and the config key, never the first call.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InvalidDefinitionTest {

  @Deployment(name = "bad-config", managed = false)
  static JavaArchive badConfig() {
    return Deployments.withConfig(
        Deployments.bulwark("bad-config", BadlyConfigured.class),
        Deployments.config("bulwark.bulkhead.it-bad.value", "zero"));
  }

  @Deployment(name = "bad-annotation", managed = false)
  static JavaArchive badAnnotation() {
    return Deployments.bulwark("bad-annotation", BadlyAnnotated.class);
  }

  @Deployment(name = "misspelt-store-key", managed = false)
  static JavaArchive misspeltStoreKey() {
    return Deployments.withConfig(
        Deployments.bulwark("misspelt-store-key", BadlyConfigured.class),
        Deployments.config(
            "bulwark.bulkhead.it-bad.value", "zero",
            "bulwark.redis.urll", "redis://elsewhere:6379",
            "bulwark.jpa.pool-sise", "4"));
  }

  @ArquillianResource Deployer deployer;

  @Test
  void anUnparsableConfigValueFailsTheDeployment() {
    Throwable failure = deployFailure("bad-config");

    assertThat(failure).isInstanceOf(DefinitionException.class);
    assertThat(failure.getMessage())
        .contains(BadlyConfigured.class.getName() + "#work")
        .contains("value")
        .contains("bulwark.bulkhead.it-bad.value")
        .contains("zero");
  }

  @Test
  void anAnnotationValueOfZeroFailsTheDeployment() {
    Throwable failure = deployFailure("bad-annotation");

    assertThat(failure).isInstanceOf(DefinitionException.class);
    assertThat(failure.getMessage())
        .contains(BadlyAnnotated.class.getName() + "#work")
        .contains("'value'");
  }

  @Test
  void aMisspeltStoreKeyIsReportedWithTheOtherProblems() {
    Throwable failure = deployFailure("misspelt-store-key");

    // the stores' keys come from their providers on the class path: a misspelt one would have
    // been ignored (the store connecting to its default URL)
    assertThat(failure).isInstanceOf(DefinitionException.class);
    assertThat(failure.getMessage())
        .contains(
            "'bulwark.redis.urll': Bulwark has no such key; did you mean 'bulwark.redis.url'?")
        .contains(
            "'bulwark.jpa.pool-sise': Bulwark has no such key; did you mean 'bulwark.jpa.pool-size'?")
        .contains(BadlyConfigured.class.getName() + "#work");
  }

  /** Deploys {@code name}, which must fail; returns the DefinitionException in the chain. */
  private Throwable deployFailure(String name) {
    Throwable[] thrown = new Throwable[1];
    try {
      assertThatThrownBy(() -> deployer.deploy(name)).satisfies(t -> thrown[0] = t);
    } finally {
      try {
        deployer.undeploy(name);
      } catch (RuntimeException e) {
        // a deployment that never started has nothing to undeploy
      }
    }
    for (Throwable t = thrown[0]; t != null; t = t.getCause()) {
      if (t instanceof DefinitionException) {
        return t;
      }
    }
    throw new AssertionError("no DefinitionException in the failure chain", thrown[0]);
  }
}
