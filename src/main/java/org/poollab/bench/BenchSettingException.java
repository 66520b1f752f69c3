package org.poollab.bench;

/**
 * A setting (or the environment it meets) that the sweep refuses before starting
 * anything. The message names the setting, the value and what is allowed.
 */
class BenchSettingException extends RuntimeException {

	BenchSettingException(String message) {
		super(message);
	}

	BenchSettingException(String message, Throwable cause) {
		super(message, cause);
	}

}
