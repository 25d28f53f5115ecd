package dev.bulwark.it.payara;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.cdi.BulwarkExtension;
import dev.bulwark.core.engine.BulwarkEngine;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A WAR as a user would build it for Payara: the application classes in {@code WEB-INF/classes},
 * {@code bulwark-api}, {@code bulwark-core} and {@code bulwark-cdi} as jars in {@code WEB-INF/lib}
 * (in a reactor build they are {@code target/classes} directories, packed here with their {@code
 * META-INF}: services, {@code beans.xml}, {@code jandex.idx}), and nothing Payara provides (CDI,
 * JAX-RS, MicroProfile Config and Fault Tolerance APIs).
 */
final class BulwarkWar {

  private static final String BEANS_XML =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <beans xmlns="https://jakarta.ee/xml/ns/jakartaee"
             xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
             xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/beans_4_0.xsd"
             version="4.0" bean-discovery-mode="annotated">
      </beans>
      """;

  private BulwarkWar() {}

  /** {@code name}.war with {@code classes} and, when not empty, a MicroProfile Config file. */
  static WebArchive create(String name, Map<String, String> config, Class<?>... classes) {
    WebArchive war =
        ShrinkWrap.create(WebArchive.class, name + ".war")
            .addClasses(classes)
            .addAsWebInfResource(new StringAsset(BEANS_XML), "beans.xml")
            .addAsLibraries(
                library("bulwark-api", DistributedBulkhead.class),
                library("bulwark-core", BulwarkEngine.class),
                library("bulwark-cdi", BulwarkExtension.class));
    if (!config.isEmpty()) {
      String properties =
          config.entrySet().stream()
              .map(e -> e.getKey() + "=" + e.getValue())
              .collect(Collectors.joining("\n", "", "\n"));
      war.addAsResource(new StringAsset(properties), "META-INF/microprofile-config.properties");
    }
    return war;
  }

  /** Writes {@code war} to {@code directory}; returns the file. */
  static Path export(WebArchive war, Path directory) throws java.io.IOException {
    Files.createDirectories(directory);
    File file = directory.resolve(war.getName()).toFile();
    war.as(ZipExporter.class).exportTo(file, true);
    return file.toPath();
  }

  /** The jar (or reactor classes directory, packed as a jar) that {@code member} comes from. */
  static JavaArchive library(String artifactId, Class<?> member) {
    Path location;
    try {
      location = Path.of(member.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    String jarName = artifactId + ".jar";
    if (Files.isDirectory(location)) {
      return ShrinkWrap.create(ExplodedImporter.class, jarName)
          .importDirectory(location.toFile())
          .as(JavaArchive.class);
    }
    return ShrinkWrap.create(ZipImporter.class, jarName)
        .importFrom(location.toFile())
        .as(JavaArchive.class);
  }
}
