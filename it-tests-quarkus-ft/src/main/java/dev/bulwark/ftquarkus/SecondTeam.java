package dev.bulwark.ftquarkus;

import jakarta.enterprise.context.ApplicationScoped;

/** The other bean inheriting {@link Teams}' bulkheads. */
@ApplicationScoped
public class SecondTeam extends Teams {}
