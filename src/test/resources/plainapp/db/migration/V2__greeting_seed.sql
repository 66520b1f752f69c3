INSERT INTO greeting (text) VALUES ('hello'), ('bonjour'), ('hallo');
