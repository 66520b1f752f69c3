/**
 * What the lab needs from the service: 503 with a reason when no connection comes, the
 * loopback-only resize endpoint (its contract shared with the reactive twin), the refusal
 * counter.
 */
@NullMarked
package org.poollab.service.system;

import org.jspecify.annotations.NullMarked;
