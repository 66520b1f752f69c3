package org.poollab.bench.lab;

/**
 * The lab itself broke (an instance did not start, JMeter crashed, a point got no
 * samples): the only kind of failure that fails the build. Saturation is a result, not
 * this.
 */
public class LabFailureException extends RuntimeException {

	public LabFailureException(String message) {
		super(message);
	}

	public LabFailureException(String message, Throwable cause) {
		super(message, cause);
	}

}
