package org.poollab.bench.lab;

import org.jspecify.annotations.Nullable;

/**
 * The lab itself broke (an instance did not start, JMeter crashed, a point got no
 * samples): the only kind of failure that fails the build. Saturation is a result, not
 * this.
 */
public class LabFailureException extends RuntimeException {

	public LabFailureException(String message) {
		super(message);
	}

	public LabFailureException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
