//! A minimal Tracy server, enough to check what a `--features tracy` run sends: it connects
//! to the client on loopback, shakes hands, reads the LZ4 stream and keeps the GPU contexts
//! and zones ([`Capture`]), and lets the client exit.
//!
//! The conversation, from `client/TracyProfiler.cpp` (`Profiler::Worker`) of the
//! tracy-client-sys the runtime links (protocol facts in [`protocol`], generated from its
//! headers):
//!
//! 1. the server sends the shibboleth `TracyPrf` and the protocol version (u32);
//! 2. the client answers a handshake status (1 byte; `HandshakeWelcome` or why not), the
//!    `WelcomeMessage` and, being on demand, an `OnDemandPayloadMessage`;
//! 3. then blocks of queue items ([`stream`], [`items`]) until the process exits: it sends
//!    what is left, a `Terminate` item, and then answers server queries until the server
//!    sends `ServerQueryTerminate` (or closes): without it the client's exit waits forever.
//!
//! The server asks nothing else: names of static source locations, threads and plots, which
//! a viewer would query, are not needed for the GPU zones (their names travel with them).
//! Every read has a timeout and the whole capture a deadline, so a silent or stuck client
//! fails the test instead of hanging it.

pub mod items;
#[allow(
    dead_code,
    reason = "generated from the headers: every fact, used or not"
)]
pub mod protocol;
pub mod stream;

use std::io::{ErrorKind, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

pub use items::Capture;

/// The longest the client may stay silent (it sends a keep-alive every 5 s or so when idle).
const SILENCE: Duration = Duration::from_secs(20);

/// How long the client's process may take to start listening.
const CONNECT: Duration = Duration::from_secs(60);

/// Connect to a client listening on 127.0.0.1:`port`, retrying while the process starts,
/// until `deadline`.
pub fn connect(port: u16, deadline: Instant) -> Result<TcpStream, String> {
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    loop {
        match TcpStream::connect_timeout(&addr, Duration::from_secs(1)) {
            Ok(s) => return Ok(s),
            Err(e) if Instant::now() >= deadline => {
                return Err(format!("no Tracy client on {addr}: {e}"));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

fn read_exact(sock: &mut TcpStream, n: usize, what: &str) -> Result<Vec<u8>, String> {
    let mut buf = vec![0; n];
    sock.read_exact(&mut buf)
        .map_err(|e| format!("reading {what} ({n} bytes): {e}"))?;
    Ok(buf)
}

/// Be the server of the client on 127.0.0.1:`port` until it exits; fail at `deadline`.
pub fn capture(port: u16, deadline: Instant) -> Result<Capture, String> {
    let mut sock = connect(port, deadline.min(Instant::now() + CONNECT))?;
    sock.set_read_timeout(Some(SILENCE))
        .and_then(|()| sock.set_write_timeout(Some(SILENCE)))
        .map_err(|e| e.to_string())?;
    let mut hello = protocol::SHIBBOLETH.to_vec();
    hello.extend_from_slice(&protocol::PROTOCOL_VERSION.to_le_bytes());
    sock.write_all(&hello)
        .map_err(|e| format!("handshake: {e}"))?;
    let status = read_exact(&mut sock, 1, "the handshake status")?[0];
    if status != protocol::HANDSHAKE_WELCOME {
        return Err(format!(
            "handshake status {status} (TracyProtocol.hpp HandshakeStatus; 2 is a protocol \
             mismatch: the client is not protocol {})",
            protocol::PROTOCOL_VERSION
        ));
    }
    let welcome = read_exact(&mut sock, protocol::WELCOME_SIZE, "the welcome")?;
    if welcome[protocol::WELCOME_FLAGS] & protocol::WELCOME_ON_DEMAND == 0 {
        return Err("the client is not on demand (the `tracy` feature asks for it)".into());
    }
    read_exact(&mut sock, protocol::ON_DEMAND_SIZE, "the on-demand payload")?;

    let mut lz4 = stream::Lz4Stream::default();
    let mut walker = items::Walker::default();
    let mut said_terminate = false;
    loop {
        if Instant::now() >= deadline {
            return Err("the capture's deadline passed before the client exited".into());
        }
        let mut size = [0u8; protocol::LZ4_SIZE_BYTES];
        match sock.read_exact(&mut size) {
            Ok(()) => {}
            // The client closes the connection once told the server is done.
            Err(e)
                if said_terminate
                    && matches!(
                        e.kind(),
                        ErrorKind::UnexpectedEof | ErrorKind::ConnectionReset
                    ) =>
            {
                break;
            }
            Err(e) => return Err(format!("reading a block's size: {e}")),
        }
        let size = u32::from_le_bytes(size) as usize;
        let block = read_exact(&mut sock, size, "an LZ4 block")?;
        walker.block(lz4.block(&block)?)?;
        if walker.terminated() && !said_terminate {
            let mut query = [0u8; protocol::SERVER_QUERY_SIZE];
            query[0] = protocol::SERVER_QUERY_TERMINATE;
            sock.write_all(&query)
                .map_err(|e| format!("sending ServerQueryTerminate: {e}"))?;
            said_terminate = true;
        }
    }
    walker.finish()
}
