# SPDX-License-Identifier: Apache-2.0
"""SUE endpoint with 2 and 4 Ethernet ports (``sue_endpoint -p ports=N``, sue-rtl/DESIGN-PORTS.md):
two instances back to back through one fault-injecting link model per port and direction
(tb_sue_pair.py with TB_PORTS). Checked there: every op delivered exactly once, in order per
{source, VC}; frame accounting per port (each port's MAC ports against its plane's counters);
frames carrying ops only on the port PORT_MAP names for the destination (d mod ports by default,
or the value written). Here: the generator refuses a ports value other than 1, 2, 4."""

from __future__ import annotations

import os
import subprocess

import pytest

from common import generate, run_cocotb
from common.pair_wrapper import pair_design
from common.paths import JAR

from test_sue_endpoint import OPT, PARAMS, SCENARIOS, env_of


def ports_design(ports: int, vcs: int = PARAMS["vcs"]):
    params = {**PARAMS, "ports": ports, "vcs": vcs}
    return params, generate("sue_endpoint", params)


# 4 ports x 4 VCs, as every 4-port preset: the RX merger's round robin over 16 queues, and a plane's
# credits of four one-port pools (SueTx.creditsPerVc)
@pytest.mark.parametrize("ports,vcs,seed", [(2, 2, 21), (4, 4, 22)])
def test_ports_pair_faulty_links(ports, vcs, seed):
    """Loss, corruption and duplication on every port's links, both directions, default port map
    (A = 1 sends to B = 2 on port 2 mod ports, B to A on port 1)."""
    params, design = ports_design(ports, vcs)
    env = {**env_of(design, params), "TB_PORTS": str(ports), "TB_OPS": "500", **SCENARIOS["loss1_corrupt_dup"]}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=seed, opt=OPT)


@pytest.mark.parametrize("ports,seed", [(2, 31), (4, 32)])
def test_ports_unordered_faulty_links(ports, seed):
    """Unordered mode (PORT_MODE.unordered = 1 at both ends): ops load balanced over the ports through
    lossy, corrupting, duplicating links; every op delivered exactly once (order across ports not
    kept), frame accounting per port, and every port carries frames with ops (no port idle)."""
    params, design = ports_design(ports)
    env = {**env_of(design, params), "TB_PORTS": str(ports), "TB_OPS": "500", "TB_UNORDERED": "1",
           **SCENARIOS["loss1_corrupt_dup"]}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=seed, opt=OPT)


@pytest.mark.parametrize("ports,outages,seed", [(2, "1:1000:3000,0:5000:0", 41), (4, "1:1000:3000,2:5000:0", 42)])
def test_ports_failover(ports, outages, seed):
    """Unordered mode, under load in both directions through lossy links: 1000 cycles into the
    traffic port 1 goes down for 3000 cycles, at 5000 another port goes down for good (link models
    lose every frame, link_up 0 at both ends). The dead ports' planes are steered to live ports (RH plane field), go-back-N resends what
    the dead links lost: every op delivered exactly once; frame accounting by plane; the recovery
    figures (first frame steered, last op outstanding at the outage delivered) are logged."""
    params, design = ports_design(ports)
    env = {**env_of(design, params), "TB_PORTS": str(ports), "TB_OPS": "1500", "TB_UNORDERED": "1",
           "TB_PORT_DOWN": outages, **SCENARIOS["loss1_corrupt_dup"]}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=seed, opt=OPT)


def test_ports_link_flaps():
    """Unordered mode, 2 ports: port 1's link goes down and up every 300 cycles for 20000 cycles under
    load: no hang, every op delivered exactly once."""
    params, design = ports_design(2)
    env = {**env_of(design, params), "TB_PORTS": "2", "TB_OPS": "1000", "TB_UNORDERED": "1",
           "TB_FLAP": "1:300:20000"}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=43, opt=OPT)


@pytest.mark.parametrize("ports,map_a,map_b", [(2, 2, 1), (4, 4, 1)])
def test_port_map_steers_ops(ports, map_a, map_b):
    """PORT_MAP written away from the default (A's ops to B on port map_a - 1, B's to A on map_b - 1):
    every frame with ops leaves on that port only, and everything still arrives once, in order."""
    params, design = ports_design(ports)
    env = {**env_of(design, params), "TB_PORTS": str(ports), "TB_OPS": "300", "TB_PORT_MAP_A": str(map_a),
           "TB_PORT_MAP_B": str(map_b)}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=23, opt=OPT)


@pytest.mark.parametrize("ports", ["0", "3", "8"])
def test_generator_refuses_other_port_counts(tmp_path, ports):
    r = subprocess.run(["java", "-jar", str(JAR), "sue_endpoint", "-p", f"ports={ports}", "--out-dir", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert f"'ports' = {ports} is out of range; valid values: 1, 2, 4" in r.stderr, r.stderr


# The planes, dispatcher and merger within the endpoint's depth budget (8 weighted levels, DSL
# estimate) at 2 and 4 ports x 4 VCs (the merger's round robin over 8 and 16 queues): `make gen`
# checks each top's defaults only (one port). 256 bits keeps it to seconds; the 1024-bit presets are
# the same logic wider (sue-rtl/DESIGN-PORTS.md, "Timing").
@pytest.mark.parametrize("ports,data_width,port_width", [(2, 256, 128), (4, 256, 64)])
def test_ports_within_depth_budget(tmp_path, ports, data_width, port_width):
    r = subprocess.run(["java", "-jar", str(JAR), "sue_endpoint", "-p", f"ports={ports}", "-p", "vcs=4",
                        "-p", "xpus=16", "-p", f"dataWidth={data_width}", "-p", f"portWidth={port_width}",
                        "-p", "cells=2048", "-p", "rxBufBytes=65536", "--max-depth=8", "--out-dir", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("ports,loss,seed", [(2, "1:1000:0:both", 51), (2, "1:1000:0:ab", 52), (4, "1:1000:0:ba", 53)])
def test_ports_peer_unreachable(ports, loss, seed):
    """Unordered mode, clean links, load both ways: from 1000 cycles into the traffic port 1's link
    model(s) lose every frame for good (both directions, or one) while link_up stays 1 at both ends,
    UNREACH_TIME = 1000 (below the RTO of 3000). Plane 1 gets no ACK progress, so after UNREACH_TIME it
    is unreachable and its frames move to another port (RH plane field): every op delivered exactly
    once, frame accounting by plane, plane 1's first frame on another port not before UNREACH_TIME
    after the loss began and within 500 cycles after it (the plane rewinds when it moves, not at its
    next timeout), the last op outstanding at the loss delivered within 2500 cycles (below the RTO:
    waiting for the timeout took 3194-3269); the figures are logged."""
    params, design = ports_design(ports)
    env = {**env_of(design, params), "TB_PORTS": str(ports), "TB_OPS": "1000", "TB_UNORDERED": "1",
           "TB_PORT_LOSS": loss, "TB_UNREACH_TIME": "1000", "TB_STEER_WITHIN": "500", "TB_RECOVER_WITHIN": "2500"}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=seed, opt=OPT)


def test_ports_peer_follows_move():
    """A one-way loss with an idle peer: writes A -> B only (B has no ops of its own), unordered mode,
    from 1000 cycles into the traffic port 1 loses every frame B -> A for good while link_up stays 1
    at both ends, UNREACH_TIME = 1000, RETRY_LIMIT = 4. A gets no ACK for plane 1, finds it
    unreachable and moves it to port 0 (its move count in the RH advances); B, whose own view of
    port 1 is fine, follows from the move field of A's frames and sends plane 1's ACKs on port 0
    (steer.follows at B, plane 1's frames on port 0 from both ends). Without the follow, B's ACKs
    would stay on port 1 and A's connections would end in the error state after 4 rewinds: every op
    delivered exactly once here."""
    params, design = ports_design(2)
    env = {**env_of(design, params), "TB_PORTS": "2", "TB_OPS": "600", "TB_UNORDERED": "1", "TB_SCENARIO": "writes",
           "TB_PORT_LOSS": "1:1000:0:ba", "TB_UNREACH_TIME": "1000", "TB_RETRY_LIMIT": "4",
           "TB_STEER_WITHIN": "500", "TB_RECOVER_WITHIN": "2500"}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=55, opt=OPT)


@pytest.mark.parametrize("loss,scenario,seed", [("1:1000:0:ab", "traffic", 61), ("1:1000:0:ba", "writes", 62)])
def test_ports_connection_moves(loss, scenario, seed):
    """Failover per connection: unordered mode, UNREACH_TIME = 0 (the plane never moves as a whole),
    CONN_MOVE_RETRIES = 2, RTO 1500, RETRY_LIMIT 4; from 1000 cycles into the traffic port 1 loses every
    frame A -> B (load both ways) or B -> A (writes A -> B only: B has nothing of its own to send) for
    good while link_up stays 1. A's connection to B times out twice without progress and moves to port 0
    (tx_rel.conn_moves, its frames' RH conn_move 1); with B -> A lost, B follows from that field
    (tx_rel.conn_follows, its own conn_move stays 0) so its ACKs reach A. Every op delivered exactly once,
    the last op outstanding at the loss within 3 RTOs; neither plane unreachable nor followed. Without
    the move the connection ends in the error state (test_ports_unreach_time_never)."""
    params, design = ports_design(2)
    env = {**env_of(design, params), "TB_PORTS": "2", "TB_OPS": "600", "TB_UNORDERED": "1", "TB_SCENARIO": scenario,
           "TB_PORT_LOSS": loss, "TB_UNREACH_TIME": "0", "TB_CONN_MOVE_RETRIES": "2", "TB_RTO": "1500",
           "TB_RETRY_LIMIT": "4", "TB_EXPECT_CONN_MOVE": "1", "TB_STEER_WITHIN": "4500", "TB_RECOVER_WITHIN": "4500"}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=seed, opt=OPT)


def test_ports_connection_moves_three_endpoints():
    """Failover per connection among three endpoints (tb_sue_trio.py): A, B and C of 2 ports through a
    switch per port, unordered mode, traffic between every two, CONN_MOVE_RETRIES = 2, UNREACH_TIME =
    4 RTOs (plane failover on), RTO 1500. Port 1 loses every frame A -> B for good from 300 cycles in
    while link_up stays 1: A's plane 1 is still acknowledged by C, so it never becomes unreachable, and
    only its connection to B moves to port 0; its plane-1 frames to C stay on port 1. Every op delivered
    exactly once; C moves nothing."""
    params, design = ports_design(2)
    env = {**env_of(design, params), "TB_PORTS": "2", "TB_OPS": "800", "TB_UNORDERED": "1",
           "TB_UNREACH_TIME": "6000", "TB_CONN_MOVE_RETRIES": "2", "TB_RTO": "1500", "TB_RETRY_LIMIT": "4",
           "TB_LOSS_AT": "300"}
    run_cocotb(pair_design(design, ("a_", "b_", "c_")), "tb_sue_trio", extra_env=env, seed=63, opt=OPT)


def test_ports_unreach_time_never():
    """Unordered mode, UNREACH_TIME = 0 (never) and CONN_MOVE_RETRIES = 0: port 1 loses every frame for good, link_up stays 1.
    Plane 1 never moves (no frame of it on port 0); its connection to the peer ends in the error
    state after RETRY_LIMIT rewinds (conn_err naming the peer, conn_state error), as with one port."""
    params, design = ports_design(2)
    env = {**env_of(design, params), "TB_PORTS": "2", "TB_OPS": "200", "TB_UNORDERED": "1",
           "TB_SCENARIO": "unreach_never", "TB_PORT_LOSS": "1:500:0:both", "TB_UNREACH_TIME": "0",
           "TB_CONN_MOVE_RETRIES": "0", "TB_RTO": "1500", "TB_RETRY_LIMIT": "2"}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=54, opt=OPT)
