package dev.bulwark.fttck;

import java.util.Map;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.spi.client.deployment.ApplicationArchiveProcessor;
import org.jboss.arquillian.test.spi.TestClass;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.container.LibraryContainer;
import org.jboss.shrinkwrap.api.spec.JavaArchive;

/**
 * Turns a TCK deployment into what an application on Weld would be.
 *
 * <p>Every run: the archive gets a {@code beans.xml} (Weld embedded treats only bean archives as
 * application code; SmallRye Fault Tolerance itself registers through its portable extension, found
 * on the class path).
 *
 * <p>Bridge runs: the archive also gets, as libraries, the {@code bulwark-cdi} jar (a bean archive,
 * like {@code WEB-INF/lib/bulwark-cdi.jar} of a WAR) and a small jar whose {@code
 * META-INF/microprofile-config.properties} turns the bridge on for every {@code @Bulkhead} and
 * points Bulwark at this run's store, under names of this deployment's own (see {@link
 * BridgeConfig}). The test's own configuration stays in its own file, untouched.
 */
public class DeploymentPreparer implements ApplicationArchiveProcessor {

  private static final Logger LOG = Logger.getLogger(DeploymentPreparer.class.getName());

  @Override
  public void process(Archive<?> archive, TestClass testClass) {
    TckRun run = TckRun.current();
    if (!(archive instanceof LibraryContainer<?> libraries)) {
      // every TCK deployment is a WAR; anything else would run without Bulwark unnoticed
      throw new IllegalStateException(
          testClass.getName()
              + ": deployment "
              + archive.getName()
              + " is not a WebArchive, so "
              + getClass().getSimpleName()
              + " cannot add libraries to it");
    }
    if (!archive.contains("WEB-INF/beans.xml")) {
      archive.add(EmptyAsset.INSTANCE, "WEB-INF/beans.xml");
    }
    if (!run.bridged()) {
      return;
    }
    libraries.addAsLibrary(BulwarkLibrary.cdi());
    Map<String, String> config = BridgeConfig.forDeployment(run, testClass.getJavaClass());
    LOG.info(() -> testClass.getName() + " deployed with " + config);
    JavaArchive configJar =
        ShrinkWrap.create(JavaArchive.class, "bulwark-tck-config.jar")
            .addAsManifestResource(
                new StringAsset(properties(config)), "microprofile-config.properties");
    libraries.addAsLibrary(configJar);
  }

  private static String properties(Map<String, String> config) {
    return config.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining("\n", "", "\n"));
  }
}
