package org.poollab.bench.lab;

/**
 * A setting (or the environment it meets) that the sweep refuses before starting
 * anything. The message names the setting, the value and what is allowed.
 */
public class BenchSettingException extends RuntimeException {

	public BenchSettingException(String message) {
		super(message);
	}

	public BenchSettingException(String message, Throwable cause) {
		super(message, cause);
	}

}
