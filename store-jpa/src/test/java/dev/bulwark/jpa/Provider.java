package dev.bulwark.jpa;

/** The JPA providers the tests run the store on. */
enum Provider {
  HIBERNATE("org.hibernate.jpa.HibernatePersistenceProvider"),
  ECLIPSELINK("org.eclipse.persistence.jpa.PersistenceProvider");

  final String className;

  Provider(String className) {
    this.className = className;
  }
}
