package org.poollab.service.system;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;

/**
 * The bearer token every write to the {@code poolsize} endpoint must carry when
 * {@value #PROPERTY} is set ({@code Authorization: Bearer <token>}); both services'
 * endpoints share it through {@link PoolResize}. Read from the environment, where the
 * variable {@value #VARIABLE} reaches it through Spring Boot's relaxed binding: never
 * from a command line, which other users of the machine can read.
 * <p>
 * The value is a secret: nothing here prints it ({@link #toString()} included), and a
 * refused value is described by the rule it breaks, never quoted.
 */
public final class ResizeToken {

	/** The token's setting; unset, writes need no token (allowed on loopback only). */
	public static final String PROPERTY = "lab.pool-resize.token";

	/** The environment variable Spring Boot binds onto {@value #PROPERTY}. */
	public static final String VARIABLE = "LAB_POOL_RESIZE_TOKEN";

	public static final int MIN_LENGTH = 16;

	/** The challenge of a 401: the scheme and the realm, nothing of the token. */
	public static final String CHALLENGE = "Bearer realm=\"poolsize\"";

	/**
	 * RFC 6750's b64token, the characters a bearer token may have in a header, so that
	 * every allowed token can be sent as it is.
	 */
	private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._~+/-]+=*");

	private static final String SCHEME = "bearer";

	private static final String RULE = "at least %d characters from A-Z a-z 0-9 - . _ ~ + / (optionally ending in =), e.g. from `openssl rand -hex 32`"
		.formatted(MIN_LENGTH);

	private final byte[] value;

	private ResizeToken(String value) {
		this.value = value.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * The configured token, checked.
	 * @param environment the application's environment
	 * @return the token, or {@code null} when {@value #PROPERTY} is not set
	 * @throws IllegalStateException naming the setting, the rule the value breaks and
	 * what is allowed, never the value
	 */
	public static @Nullable ResizeToken from(Environment environment) {
		String value = environment.getProperty(PROPERTY);
		if (value == null) {
			return null;
		}
		String broken = brokenRule(value);
		if (broken != null) {
			throw new IllegalStateException(
					"%s (environment variable %s) must be %s; the one set %s. Unset, writes to the poolsize endpoint need no token, which is allowed on a loopback address only"
						.formatted(PROPERTY, VARIABLE, RULE, broken));
		}
		return new ResizeToken(value);
	}

	private static @Nullable String brokenRule(String value) {
		if (value.isBlank()) {
			return "is blank";
		}
		if (value.length() < MIN_LENGTH) {
			return "is shorter than %d characters".formatted(MIN_LENGTH);
		}
		if (!ALLOWED.matcher(value).matches()) {
			return "has a character outside that set (a space or a line break?)";
		}
		return null;
	}

	/**
	 * Checks a request's {@code Authorization} header, comparing the token in constant
	 * time: how long it takes says nothing about how much of a guess was right.
	 * @param authorization the header's value, {@code null} when absent
	 * @return {@link Check#ACCEPTED} for {@code Bearer <this token>},
	 * {@link Check#MISSING} when the header is absent or not a bearer credential,
	 * {@link Check#WRONG} for another token
	 */
	public Check check(@Nullable String authorization) {
		if (authorization == null || authorization.length() <= SCHEME.length()
				|| !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
				|| authorization.charAt(SCHEME.length()) != ' ') {
			return Check.MISSING;
		}
		String presented = authorization.substring(SCHEME.length()).stripLeading();
		if (presented.isEmpty() || presented.indexOf(' ') >= 0) {
			return Check.MISSING;
		}
		// Time depends on the first argument's length only: the configured token's.
		return MessageDigest.isEqual(this.value, presented.getBytes(StandardCharsets.UTF_8)) ? Check.ACCEPTED
				: Check.WRONG;
	}

	@Override
	public String toString() {
		return "ResizeToken[%s, value hidden]".formatted(PROPERTY);
	}

	/**
	 * What a request's credential is worth, and the answer to one that is refused: an RFC
	 * 9457 problem like the services' other errors, which names the setting and never the
	 * token.
	 */
	public enum Check {

		/** The configured token: the request goes on. */
		ACCEPTED(200, ""),

		/** No bearer credential: 401 with {@link ResizeToken#CHALLENGE}. */
		MISSING(401, "Changing the pool size needs the header Authorization: Bearer <%s>".formatted(PROPERTY)),

		/** A bearer token that is not the configured one: 403. */
		WRONG(403, "The bearer token is not %s".formatted(PROPERTY));

		private final int status;

		private final String detail;

		Check(int status, String detail) {
			this.status = status;
			this.detail = detail;
		}

		public int status() {
			return this.status;
		}

		/**
		 * The refusal's {@code application/problem+json} body.
		 * @return the body, or an empty string for {@link #ACCEPTED}
		 */
		public String problem() {
			if (this == ACCEPTED) {
				return "";
			}
			String title = (this == MISSING) ? "Unauthorized" : "Forbidden";
			return "{\"type\":\"about:blank\",\"title\":\"%s\",\"status\":%d,\"detail\":\"%s\"}".formatted(title,
					this.status, this.detail);
		}

	}

}
