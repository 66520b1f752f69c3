/**
 * The lab: settings, pre-flight checks and the sweep that drives every stage (grid,
 * deploy, load, collect, report).
 */
@NullMarked
package org.poollab.bench;

import org.jspecify.annotations.NullMarked;
