/**
 * The service's management (actuator) server on its own port: configuration for that
 * child context only. Outside {@code org.poollab.service} on purpose, so that the
 * service's component scan never applies it to the request port; Boot imports it from
 * {@code META-INF/spring/...ManagementContextConfiguration.imports}.
 */
@NullMarked
package org.poollab.management;

import org.jspecify.annotations.NullMarked;
