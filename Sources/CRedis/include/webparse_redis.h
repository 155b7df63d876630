/*
 * CRedis: a Redis connection through hiredis, as plain functions. It holds no policy: no retries, no queue; the
 * Swift side (RedisConnection) decides when to reconnect and what a reply means.
 */
#ifndef WEBPARSE_REDIS_H
#define WEBPARSE_REDIS_H

#include <stddef.h>
#include <stdbool.h>

/* A connection to one Redis server. */
typedef struct WRConnection WRConnection;

/* What a reply is. */
typedef enum {
    WR_REPLY_STRING = 1,
    WR_REPLY_ARRAY,
    WR_REPLY_INTEGER,
    WR_REPLY_NIL,
    WR_REPLY_STATUS,
    WR_REPLY_ERROR
} WRReplyKind;

/* A reply, as hiredis read it. */
typedef struct WRReply WRReply;

/* Connects to host:port, waiting `timeout` seconds at most for the connection and for each reply after it.
 * Returns NULL when it cannot, with why in *error (free it with free()). */
WRConnection *wr_connect(const char *host, int port, double timeout, char **error);
/* Why the connection's last call failed (the socket's error), or NULL. */
const char *wr_error(const WRConnection *connection);
void wr_close(WRConnection *connection);

/* Sends a command of `count` arguments (each `lengths[i]` bytes: binary-safe) and waits for its reply. Returns
 * NULL when the connection failed (wr_error says why); the connection must then be reconnected. */
WRReply *wr_command(WRConnection *connection, int count, const char **arguments, const size_t *lengths);
WRReplyKind wr_reply_kind(const WRReply *reply);
long long wr_reply_integer(const WRReply *reply);
/* The bytes of a string, status or error reply, and their count in *length. */
const char *wr_reply_text(const WRReply *reply, size_t *length);
size_t wr_reply_count(const WRReply *reply);
/* Element `index` of an array reply; it belongs to the array. */
const WRReply *wr_reply_element(const WRReply *reply, size_t index);
void wr_reply_free(WRReply *reply);

#endif
