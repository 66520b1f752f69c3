/**
 * What the lab needs from the service: 503 with a reason when no connection comes, the
 * resize endpoint, on loopback or behind a token (its contract shared with the reactive
 * twin), the refusal counter.
 */
@NullMarked
package org.poollab.service.system;

import org.jspecify.annotations.NullMarked;
