"""PPO training: the script (``train_ppo.py``) and the parts it is made of.

``args.py`` holds the settings and needs no torch; the other modules import
torch and stable-baselines3 (the ``train`` extra), so nothing here is imported
by the agents package itself.
"""
