package dev.bulwark.fttck;

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
import java.util.List;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;

/**
 * The {@code bulwark-cdi} library as a deployment would carry it. On the test class path it is a
 * jar (or, in a reactor build before packaging, {@code target/classes}); it is found as the class
 * path root whose extension registration names a {@code dev.bulwark.cdi} class, and imported once.
 */
final class BulwarkLibrary {

  private static final String EXTENSION_SERVICE =
      "META-INF/services/jakarta.enterprise.inject.spi.Extension";

  private static JavaArchive cdi;

  private BulwarkLibrary() {}

  /** A copy of the bulwark-cdi archive, named {@code bulwark-cdi.jar}. */
  static synchronized JavaArchive cdi() {
    if (cdi == null) {
      cdi = importCdi();
    }
    // each deployment gets its own copy: ShrinkWrap archives are mutable
    return ShrinkWrap.create(JavaArchive.class, "bulwark-cdi.jar").merge(cdi);
  }

  private static JavaArchive importCdi() {
    List<String> seen = new ArrayList<>();
    try {
      Enumeration<URL> services =
          BulwarkLibrary.class.getClassLoader().getResources(EXTENSION_SERVICE);
      while (services.hasMoreElements()) {
        URL url = services.nextElement();
        seen.add(url.toString());
        if (!registersBulwarkCdi(url)) {
          continue;
        }
        if ("jar".equals(url.getProtocol())) {
          JarURLConnection connection = (JarURLConnection) url.openConnection();
          Path jar = Path.of(connection.getJarFileURL().toURI());
          return ShrinkWrap.create(ZipImporter.class, "bulwark-cdi.jar")
              .importFrom(jar.toFile())
              .as(JavaArchive.class);
        }
        // .../target/classes/META-INF/services/<file>: three levels up is the class path root
        Path root = Path.of(url.toURI()).getParent().getParent().getParent();
        if (Files.isDirectory(root)) {
          return ShrinkWrap.create(ExplodedImporter.class, "bulwark-cdi.jar")
              .importDirectory(root.toFile())
              .as(JavaArchive.class);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    throw new IllegalStateException(
        "No dev.bulwark.cdi portable extension on the class path of a bridge run (bulwark-cdi"
            + " missing?); extension registrations seen: "
            + seen);
  }

  private static boolean registersBulwarkCdi(URL services) throws IOException {
    try (InputStream in = services.openStream();
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      return reader.lines().map(String::trim).anyMatch(line -> line.startsWith("dev.bulwark.cdi."));
    }
  }
}
