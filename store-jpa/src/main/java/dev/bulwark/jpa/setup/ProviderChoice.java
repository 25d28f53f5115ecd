package dev.bulwark.jpa.setup;

import jakarta.persistence.spi.PersistenceProvider;
import jakarta.persistence.spi.PersistenceProviderResolverHolder;
import java.util.List;
import java.util.Map;

/**
 * Which JPA provider the store's own unit runs on ({@code bulwark.jpa.provider}, else the first on
 * the class path), and the properties that make a provider map the store's entities to its table
 * names.
 */
public final class ProviderChoice {

  private ProviderChoice() {}

  /** The provider the settings name, else the first found; a failure naming the setting. */
  static PersistenceProvider of(JpaSettings settings) {
    List<PersistenceProvider> providers =
        PersistenceProviderResolverHolder.getPersistenceProviderResolver()
            .getPersistenceProviders();
    if (providers.isEmpty()) {
      throw new InvalidJpaSettingException(
          "bulwark.store=jpa: no JPA provider on the class path (add Hibernate ORM or"
              + " EclipseLink)");
    }
    if (settings.provider() == null) {
      return providers.get(0);
    }
    return providers.stream()
        .filter(p -> p.getClass().getName().equals(settings.provider()))
        .findFirst()
        .orElseThrow(
            () ->
                new InvalidJpaSettingException(
                    "bulwark.jpa.provider="
                        + settings.provider()
                        + ": not on the class path; found "
                        + providers.stream().map(p -> p.getClass().getName()).toList()));
  }

  /**
   * The properties that make the provider named {@code providerClassName} map the store's entities
   * to {@code names}: for a unit a container builds (JTA), as for the store's own.
   *
   * @throws InvalidJpaSettingException for a provider other than Hibernate and EclipseLink with a
   *     prefix other than the default
   */
  public static Map<String, Object> namingProperties(String providerClassName, TableNames names) {
    String name = providerClassName;
    if (name.startsWith("org.hibernate.")) {
      return HibernateTableNames.properties(names);
    }
    if (name.startsWith("org.eclipse.persistence.")) {
      return EclipseLinkTableNames.properties(names);
    }
    if (!names.prefix().equals(JpaSettings.DEFAULT_TABLE_PREFIX)) {
      throw new InvalidJpaSettingException(
          "bulwark.jpa.table-prefix="
              + names.prefix()
              + ": the store can set a table prefix on Hibernate and EclipseLink only, not on "
              + name);
    }
    return Map.of();
  }

  /**
   * The naming properties of every provider on the class path, for a named unit whose provider the
   * store learns only once the unit is open.
   */
  static Map<String, Object> namingPropertiesOfEveryProvider(TableNames names) {
    Map<String, Object> properties = new java.util.HashMap<>();
    if (onClassPath("org.hibernate.boot.model.naming.PhysicalNamingStrategy")) {
      properties.putAll(HibernateTableNames.properties(names));
    }
    if (onClassPath("org.eclipse.persistence.sessions.SessionCustomizer")) {
      properties.putAll(EclipseLinkTableNames.properties(names));
    }
    return properties;
  }

  private static boolean onClassPath(String className) {
    try {
      Class.forName(className, false, ProviderChoice.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
