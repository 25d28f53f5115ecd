package dev.bulwark.jpa.setup;

import dev.bulwark.jpa.entity.ClaimRow;
import dev.bulwark.jpa.entity.LimitRow;
import dev.bulwark.jpa.entity.RateGrantRow;
import jakarta.persistence.SharedCacheMode;
import jakarta.persistence.ValidationMode;
import jakarta.persistence.spi.ClassTransformer;
import jakarta.persistence.spi.PersistenceUnitInfo;
import jakarta.persistence.spi.PersistenceUnitTransactionType;
import java.net.URL;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * The store's own resource-local persistence unit, handed to the provider directly (no
 * persistence.xml): the three entities on a data source of the store's pool, so that any JPA
 * provider runs it the same way.
 */
final class StorePersistenceUnit implements PersistenceUnitInfo {

  static final String NAME = "bulwark-jpa-store";

  /** The entity classes, for a persistence unit of the application that hosts the store. */
  static final List<String> ENTITIES =
      List.of(LimitRow.class.getName(), ClaimRow.class.getName(), RateGrantRow.class.getName());

  private final String providerClassName;
  private final DataSource dataSource;

  StorePersistenceUnit(String providerClassName, DataSource dataSource) {
    this.providerClassName = providerClassName;
    this.dataSource = dataSource;
  }

  @Override
  public String getPersistenceUnitName() {
    return NAME;
  }

  @Override
  public String getPersistenceProviderClassName() {
    return providerClassName;
  }

  @Override
  public PersistenceUnitTransactionType getTransactionType() {
    return PersistenceUnitTransactionType.RESOURCE_LOCAL;
  }

  @Override
  public DataSource getJtaDataSource() {
    return null;
  }

  @Override
  public DataSource getNonJtaDataSource() {
    return dataSource;
  }

  @Override
  public List<String> getMappingFileNames() {
    return List.of();
  }

  @Override
  public List<URL> getJarFileUrls() {
    return List.of();
  }

  @Override
  public URL getPersistenceUnitRootUrl() {
    return StorePersistenceUnit.class.getProtectionDomain().getCodeSource().getLocation();
  }

  @Override
  public List<String> getManagedClassNames() {
    return ENTITIES;
  }

  @Override
  public boolean excludeUnlistedClasses() {
    return true;
  }

  @Override
  public SharedCacheMode getSharedCacheMode() {
    return SharedCacheMode.NONE;
  }

  @Override
  public ValidationMode getValidationMode() {
    return ValidationMode.NONE;
  }

  @Override
  public Properties getProperties() {
    return new Properties();
  }

  @Override
  public String getPersistenceXMLSchemaVersion() {
    return "3.0";
  }

  @Override
  public ClassLoader getClassLoader() {
    return StorePersistenceUnit.class.getClassLoader();
  }

  @Override
  public void addTransformer(ClassTransformer transformer) {
    // no weaving: the entities are plain classes
  }

  @Override
  public ClassLoader getNewTempClassLoader() {
    return StorePersistenceUnit.class.getClassLoader();
  }
}
