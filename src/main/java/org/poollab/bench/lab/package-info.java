/**
 * What every stage shares: the processes the lab starts (and stops), where the build put
 * its programs, and the lab's two failures.
 */
@NullMarked
package org.poollab.bench.lab;

import org.jspecify.annotations.NullMarked;
