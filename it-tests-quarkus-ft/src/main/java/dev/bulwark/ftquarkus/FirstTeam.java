package dev.bulwark.ftquarkus;

import jakarta.enterprise.context.ApplicationScoped;

/** One of two beans inheriting {@link Teams}' bulkheads. */
@ApplicationScoped
public class FirstTeam extends Teams {}
