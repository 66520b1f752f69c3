/**
 * What the lab needs from the reactive twin: 503 with a reason when no connection comes,
 * counted like the JDBC service's refusals, the no-database {@code /ping}, and the resize
 * endpoint, on loopback or behind a token.
 */
@NullMarked
package org.poollab.reactive.system;

import org.jspecify.annotations.NullMarked;
