package org.poollab.crosscheck;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * An HTTP/1.1 response parser fed whatever each read returned: it keeps the status and
 * whether the connection may be reused, and skips the body without copying it (a
 * {@code Content-Length} body, a chunked one, or one ending when the server closes). One
 * per connection, reused response after response.
 */
final class ResponseParser {

	private static final int MAX_LINE_BYTES = 8192;

	private enum State {

		STATUS_LINE, HEADERS, BODY, BODY_UNTIL_CLOSE, CHUNK_SIZE, CHUNK_DATA, CHUNK_DATA_END, TRAILERS, DONE

	}

	private final byte[] line = new byte[MAX_LINE_BYTES];

	private int lineLength;

	private State state = State.STATUS_LINE;

	private int status;

	private boolean http10;

	private long contentLength;

	private boolean chunked;

	private boolean close;

	private boolean keepAliveHeader;

	private long remaining;

	/** Makes ready for the next response on the same connection. */
	void reset() {
		this.state = State.STATUS_LINE;
		this.lineLength = 0;
		this.status = 0;
		this.http10 = false;
		this.contentLength = -1;
		this.chunked = false;
		this.close = false;
		this.keepAliveHeader = false;
		this.remaining = 0;
	}

	ResponseParser() {
		reset();
	}

	/**
	 * Consumes bytes up to the end of the current response, leaving any that follow it in
	 * the buffer.
	 * @return whether the response is complete
	 * @throws IOException if the bytes are not an HTTP/1.x response
	 */
	boolean feed(ByteBuffer buffer) throws IOException {
		while (this.state != State.DONE && buffer.hasRemaining()) {
			switch (this.state) {
				case BODY, CHUNK_DATA -> {
					int skipped = (int) Math.min(this.remaining, buffer.remaining());
					buffer.position(buffer.position() + skipped);
					this.remaining -= skipped;
					if (this.remaining == 0) {
						this.state = (this.state == State.BODY) ? State.DONE : State.CHUNK_DATA_END;
					}
				}
				case BODY_UNTIL_CLOSE -> buffer.position(buffer.limit());
				default -> {
					if (readLine(buffer)) {
						onLine();
						this.lineLength = 0;
					}
				}
			}
		}
		return this.state == State.DONE;
	}

	/**
	 * The server closed the connection.
	 * @return whether that completed the response (a body that ends with the connection)
	 */
	boolean endOfStream() {
		if (this.state == State.BODY_UNTIL_CLOSE) {
			this.state = State.DONE;
			this.close = true;
			return true;
		}
		return false;
	}

	/** Whether some of a response has arrived (so a close now cuts it short). */
	boolean started() {
		return this.state != State.STATUS_LINE || this.lineLength > 0;
	}

	int status() {
		return this.status;
	}

	/** Whether the connection may carry another request after this response. */
	boolean keepAlive() {
		return !this.close && (!this.http10 || this.keepAliveHeader);
	}

	private boolean readLine(ByteBuffer buffer) throws IOException {
		while (buffer.hasRemaining()) {
			byte b = buffer.get();
			if (b == '\n') {
				if (this.lineLength > 0 && this.line[this.lineLength - 1] == '\r') {
					this.lineLength--;
				}
				return true;
			}
			if (this.lineLength == MAX_LINE_BYTES) {
				throw new IOException("response line longer than " + MAX_LINE_BYTES + " bytes");
			}
			this.line[this.lineLength++] = b;
		}
		return false;
	}

	private void onLine() throws IOException {
		switch (this.state) {
			case STATUS_LINE -> statusLine();
			case HEADERS -> {
				if (this.lineLength == 0) {
					endOfHeaders();
				}
				else {
					header();
				}
			}
			case CHUNK_SIZE -> {
				long size = chunkSize();
				if (size == 0) {
					this.state = State.TRAILERS;
				}
				else {
					this.remaining = size;
					this.state = State.CHUNK_DATA;
				}
			}
			case CHUNK_DATA_END -> {
				if (this.lineLength != 0) {
					throw new IOException("chunk data not followed by CRLF");
				}
				this.state = State.CHUNK_SIZE;
			}
			case TRAILERS -> {
				if (this.lineLength == 0) {
					this.state = State.DONE;
				}
			}
			default -> throw new IllegalStateException(this.state.name());
		}
	}

	private void statusLine() throws IOException {
		// "HTTP/1.1 200 OK": the version, a space, three digits.
		if (this.lineLength < 12 || !startsWith("HTTP/1.") || this.line[8] != ' ') {
			throw new IOException("not an HTTP/1.x status line: " + text(0));
		}
		this.http10 = this.line[7] == '0';
		int code = 0;
		for (int i = 9; i < 12; i++) {
			int digit = this.line[i] - '0';
			if (digit < 0 || digit > 9) {
				throw new IOException("not an HTTP/1.x status line: " + text(0));
			}
			code = code * 10 + digit;
		}
		this.status = code;
		this.state = State.HEADERS;
	}

	private void header() throws IOException {
		if (startsWith("content-length:")) {
			try {
				this.contentLength = Long.parseLong(text(15).trim());
			}
			catch (NumberFormatException ex) {
				throw new IOException("bad Content-Length: " + text(15));
			}
		}
		else if (startsWith("transfer-encoding:")) {
			this.chunked = text(18).toLowerCase(Locale.ROOT).contains("chunked");
		}
		else if (startsWith("connection:")) {
			String value = text(11).toLowerCase(Locale.ROOT);
			this.close |= value.contains("close");
			this.keepAliveHeader |= value.contains("keep-alive");
		}
	}

	private void endOfHeaders() {
		if (this.status >= 100 && this.status < 200) {
			// An interim response (100 Continue): the real one follows.
			reset();
		}
		else if (this.status == 204 || this.status == 304) {
			this.state = State.DONE;
		}
		else if (this.chunked) {
			this.state = State.CHUNK_SIZE;
		}
		else if (this.contentLength >= 0) {
			this.remaining = this.contentLength;
			this.state = (this.contentLength == 0) ? State.DONE : State.BODY;
		}
		else {
			this.state = State.BODY_UNTIL_CLOSE;
		}
	}

	private long chunkSize() throws IOException {
		long size = 0;
		int digits = 0;
		for (int i = 0; i < this.lineLength; i++) {
			int digit = Character.digit(this.line[i], 16);
			if (digit < 0) {
				break; // a chunk extension (";name=value") or trailing space
			}
			size = size * 16 + digit;
			digits++;
		}
		if (digits == 0 || digits > 15) {
			throw new IOException("bad chunk size line: " + text(0));
		}
		return size;
	}

	/** Case-insensitive comparison with a lower-case ASCII prefix. */
	private boolean startsWith(String prefix) {
		if (this.lineLength < prefix.length()) {
			return false;
		}
		for (int i = 0; i < prefix.length(); i++) {
			int b = this.line[i];
			if (b >= 'A' && b <= 'Z') {
				b += 'a' - 'A';
			}
			if (b != Character.toLowerCase(prefix.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	private String text(int from) {
		return new String(this.line, from, this.lineLength - from, StandardCharsets.ISO_8859_1);
	}

}
