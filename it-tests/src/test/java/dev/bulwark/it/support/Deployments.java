package dev.bulwark.it.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.ArchiveAsset;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;

/**
 * Builds the ShrinkWrap deployments of the tests: the test's beans in a bean archive (an empty
 * {@code beans.xml}, so annotated discovery as in CDI 4), the Bulwark CDI library nested in it as
 * the application server would see {@code WEB-INF/lib/bulwark-cdi.jar}, and optionally a {@code
 * META-INF/microprofile-config.properties}.
 */
public final class Deployments {

  private static final String EXTENSION_SERVICE =
      "META-INF/services/jakarta.enterprise.inject.spi.Extension";

  private Deployments() {}

  /** A deployment of {@code classes} plus the Bulwark CDI library. */
  public static JavaArchive bulwark(String name, Class<?>... classes) {
    JavaArchive archive =
        ShrinkWrap.create(JavaArchive.class, name + ".jar")
            .addClasses(classes)
            .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml");
    archive.add(new ArchiveAsset(bulwarkCdiLibrary(), ZipExporter.class), "bulwark-cdi.jar");
    return archive;
  }

  /** Adds {@code META-INF/microprofile-config.properties} with {@code properties} in order. */
  public static JavaArchive withConfig(JavaArchive archive, Map<String, String> properties) {
    String text =
        properties.entrySet().stream()
            .map(e -> escapeKey(e.getKey()) + "=" + e.getValue())
            .collect(Collectors.joining("\n", "", "\n"));
    return archive.addAsManifestResource(new StringAsset(text), "microprofile-config.properties");
  }

  /** An ordered map of config entries: {@code config("k1", "v1", "k2", "v2")}. */
  public static Map<String, String> config(String... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("keys and values must come in pairs");
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  private static String escapeKey(String key) {
    // properties syntax: ':' and '=' end a key unless escaped
    return key.replace("\\", "\\\\").replace(":", "\\:").replace("=", "\\=");
  }

  /**
   * The bulwark-cdi jar (or, in a reactor build, its {@code target/classes}), found as the
   * classpath root that registers a {@code dev.bulwark.cdi} portable extension (bulwark-fault-
   * tolerance registers one of its own).
   */
  static JavaArchive bulwarkCdiLibrary() {
    List<String> seen = new ArrayList<>();
    try {
      Enumeration<URL> services =
          Deployments.class.getClassLoader().getResources(EXTENSION_SERVICE);
      while (services.hasMoreElements()) {
        URL url = services.nextElement();
        seen.add(url.toString());
        if (!registersBulwark(url)) {
          continue;
        }
        if ("jar".equals(url.getProtocol())) {
          JarURLConnection connection = (JarURLConnection) url.openConnection();
          Path jar = Path.of(connection.getJarFileURL().toURI());
          return ShrinkWrap.create(ZipImporter.class, "bulwark-cdi.jar")
              .importFrom(jar.toFile())
              .as(JavaArchive.class);
        }
        Path root = Path.of(url.toURI()).getParent().getParent().getParent();
        if (!Files.isDirectory(root)) {
          break;
        }
        return ShrinkWrap.create(ExplodedImporter.class, "bulwark-cdi.jar")
            .importDirectory(root.toFile())
            .as(JavaArchive.class);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    throw new IllegalStateException(
        "No dev.bulwark portable extension on the test classpath (bulwark-cdi missing?); "
            + "extension registrations seen: "
            + seen);
  }

  private static boolean registersBulwark(URL services) throws IOException {
    try (InputStream in = services.openStream();
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      return reader.lines().map(String::trim).anyMatch(line -> line.startsWith("dev.bulwark.cdi."));
    }
  }
}
