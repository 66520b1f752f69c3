/**
 * The services' management (actuator) server: its threads when it has a port of its own
 * (a child context), and the token on writes to the {@code poolsize} endpoint wherever
 * the actuator is served. Outside {@code org.poollab.service} and
 * {@code org.poollab.reactive} on purpose, so that no service's component scan applies it
 * to the application's context; Boot imports it from
 * {@code META-INF/spring/...ManagementContextConfiguration.imports} into the context that
 * serves the actuator.
 */
@NullMarked
package org.poollab.management;

import org.jspecify.annotations.NullMarked;
