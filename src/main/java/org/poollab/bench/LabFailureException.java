package org.poollab.bench;

/**
 * The lab itself broke (an instance did not start, JMeter crashed, a point got no
 * samples): the only kind of failure that fails the build. Saturation is a result, not
 * this.
 */
class LabFailureException extends RuntimeException {

	LabFailureException(String message) {
		super(message);
	}

	LabFailureException(String message, Throwable cause) {
		super(message, cause);
	}

}
